// CompileId parsing and PyTorch's display forms, including compiled autograd and missing parts.
#include "core/model/compile_id.h"

#include <QtTest>

using dynascope::CompileId;

class TestCompileId : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parse_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<QString>("display");
        QTest::addColumn<QString>("key");
        QTest::newRow("plain") << u"0/0"_qs << true << u"[0/0]"_qs << u"0/0"_qs;
        QTest::newRow("recompile") << u"0/1"_qs << true << u"[0/1]"_qs << u"0/1"_qs;
        QTest::newRow("attempt") << u"[0/0_1]"_qs << true << u"[0/0_1]"_qs << u"0/0"_qs;
        QTest::newRow("compiled autograd")
            << u"!0/3/0"_qs << true << u"[!0/3/0]"_qs << u"!0/3/0"_qs;
        QTest::newRow("bracketed ca attempt")
            << u"[!1/2/3_4]"_qs << true << u"[!1/2/3_4]"_qs << u"!1/2/3"_qs;
        QTest::newRow("big numbers") << u"12/345"_qs << true << u"[12/345]"_qs << u"12/345"_qs;
        QTest::newRow("no slash") << u"0"_qs << false << QString() << QString();
        QTest::newRow("letters") << u"a/b"_qs << false << QString() << QString();
        QTest::newRow("bad attempt") << u"0/0_x"_qs << false << QString() << QString();
        QTest::newRow("empty") << QString() << false << QString() << QString();
    }
    void parse()
    {
        QFETCH(QString, text);
        QFETCH(bool, valid);
        QFETCH(QString, display);
        QFETCH(QString, key);
        auto id = CompileId::parse(text.toStdString());
        QCOMPARE(id.has_value(), valid);
        if (!valid)
            return;
        QCOMPARE(QString::fromStdString(id->display()), display);
        QCOMPARE(QString::fromStdString(id->key()), key);
    }
    void emptyId()
    {
        CompileId id;
        QVERIFY(id.empty());
        QCOMPARE(QString::fromStdString(id.display()), u"[-]"_qs);
        id.frame = 2;
        QCOMPARE(QString::fromStdString(id.display()), u"[2/-]"_qs);
    }
    void sameCompileIgnoresAttempt()
    {
        auto a = CompileId::parse("0/1_0");
        auto b = CompileId::parse("0/1_2");
        QVERIFY(a && b);
        QVERIFY(a->sameCompile(*b));
        QVERIFY(!(*a == *b));
    }
};

QTEST_GUILESS_MAIN(TestCompileId)
#include "tst_compileid.moc"
