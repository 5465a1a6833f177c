// InputBuffer: plain files are mapped, zstd and gzip are recognised by their magic bytes and
// decompressed, the decompression limit is enforced with a message that names it, and cut
// compressed streams keep what decompressed.
#include "core/io/input_buffer.h"
#include "core/writer/compress.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace dynascope;

class TestInputBuffer : public QObject {
    Q_OBJECT
private:
    std::string m_text;
    QTemporaryDir m_dir;

    std::string write(const char* name, const std::string& bytes)
    {
        std::string path = m_dir.filePath(QString::fromUtf8(name)).toStdString();
        std::ofstream(path, std::ios::binary) << bytes;
        return path;
    }

private Q_SLOTS:
    void initTestCase()
    {
        for (int i = 0; i < 20000; ++i)
            m_text += "V0101 00:00:00.000000 1 x.py:1] {\"str\": [\"/f" + std::to_string(i)
                + ".py\", " + std::to_string(i) + "]}\n";
    }
    void plainFile()
    {
        std::string err;
        auto b = InputBuffer::open(write("plain.log", m_text), 1 << 30, err);
        QVERIFY2(b, err.c_str());
        QCOMPARE(b->compression(), InputBuffer::Compression::None);
        QCOMPARE(b->view(), std::string_view(m_text));
    }
    void compressedByMagicNotName_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::newRow("zstd") << u"zstd"_qs;
        QTest::newRow("gzip") << u"gzip"_qs;
    }
    void compressedByMagicNotName()
    {
        QFETCH(QString, kind);
        std::string packed = kind == u"zstd"_qs ? compressZstd(m_text) : compressGzip(m_text);
        std::string err;
        auto b = InputBuffer::open(write("no_extension", packed), 1 << 30, err);
        QVERIFY2(b, err.c_str());
        QVERIFY(b->compression() != InputBuffer::Compression::None);
        QCOMPARE(b->size(), m_text.size());
        QVERIFY(b->view() == m_text);
        QCOMPARE(b->fileBytes(), uint64_t(packed.size()));
    }
    void limitIsEnforced()
    {
        std::string err;
        auto b = InputBuffer::fromBytes(compressZstd(m_text), 100000, err);
        QVERIFY(!b);
        QVERIFY2(err.find("100000") != std::string::npos, err.c_str());
        b = InputBuffer::fromBytes(compressGzip(m_text), 100000, err);
        QVERIFY(!b);
        QVERIFY2(err.find("limit") != std::string::npos, err.c_str());
    }
    void cutStreamKeepsPrefix()
    {
        std::string packed = compressZstd(m_text);
        std::string err;
        auto b = InputBuffer::fromBytes(packed.substr(0, packed.size() / 2), 1 << 30, err);
        QVERIFY(b);
        QVERIFY(!err.empty());
        QVERIFY(b->size() > 0 && b->size() < m_text.size());
        QVERIFY(m_text.starts_with(b->view()));
        std::string gz = compressGzip(m_text);
        b = InputBuffer::fromBytes(gz.substr(0, gz.size() / 2), 1 << 30, err);
        QVERIFY(b);
        QVERIFY(m_text.starts_with(b->view()));
    }
    void emptyAndMissing()
    {
        std::string err;
        auto b = InputBuffer::open(write("empty.log", ""), 1 << 30, err);
        QVERIFY(b);
        QCOMPARE(b->size(), size_t(0));
        QVERIFY(!InputBuffer::open(m_dir.filePath(u"absent"_qs).toStdString(), 1 << 30, err));
        QVERIFY(!err.empty());
        QVERIFY(!InputBuffer::open(m_dir.path().toStdString(), 1 << 30, err));
        QCOMPARE(err, std::string("is a folder"));
    }
};

QTEST_GUILESS_MAIN(TestInputBuffer)
#include "tst_inputbuffer.moc"
