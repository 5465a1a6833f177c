// md5Many (core/util/md5_many.h), the multi-buffer MD5 the loader checks payloads with, gives
// OpenSSL's digest for every message: lengths around the padding edges (55, 56, 63, 64 and 119
// bytes need one or two padding blocks), empty messages, long ones (in lanes, or by OpenSSL when
// one would end alone), and batches of fewer, as many and more messages than lanes, mixed in
// length so lanes finish apart.
#include "core/util/md5.h"
#include "core/util/md5_many.h"

#include <QtTest>

#include <algorithm>
#include <random>

using namespace dynascope;

namespace {
std::string hex(const unsigned char* d)
{
    static const char digits[] = "0123456789abcdef";
    std::string s;
    for (int i = 0; i < 16; ++i) {
        s += digits[d[i] >> 4];
        s += digits[d[i] & 15];
    }
    return s;
}

// Every kernel this CPU runs (md5Many uses the widest), and md5Many itself.
void checkBatch(const std::vector<std::string>& texts)
{
    std::vector<int> widths = md5ManyWidths();
    widths.push_back(-1); // md5Many
    for (int lanes : widths) {
        std::vector<Md5Message> messages(texts.size());
        for (size_t i = 0; i < texts.size(); ++i)
            messages[i].data = texts[i];
        if (lanes < 0)
            md5Many(messages.data(), messages.size());
        else
            md5ManyWith(lanes, messages.data(), messages.size());
        for (size_t i = 0; i < texts.size(); ++i)
            QVERIFY2(hex(messages[i].digest) == md5Hex(texts[i]),
                ("message " + std::to_string(i) + " of " + std::to_string(texts[i].size())
                    + " bytes, " + (lanes < 0 ? "md5Many" : std::to_string(lanes) + " lanes"))
                    .c_str());
    }
}
} // namespace

class TestMd5Many : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The kernels: 8 lanes on any x86-64 (SSE2) or plain vector code, more with AVX2/AVX-512.
    void widths()
    {
        const std::vector<int> widths = md5ManyWidths();
        QVERIFY(!widths.empty());
        QCOMPARE(widths.back(), 8);
        QVERIFY(std::is_sorted(widths.rbegin(), widths.rend()));
        qInfo("kernels of %s lanes",
            [&] {
                std::string s;
                for (int w : widths)
                    s += (s.empty() ? "" : ", ") + std::to_string(w);
                return s;
            }()
                .c_str());
    }

    void knownDigests()
    {
        std::vector<std::string> texts { "", "a", "abc", "message digest",
            "12345678901234567890123456789012345678901234567890123456789012345678901234567890" };
        std::vector<Md5Message> m(texts.size());
        for (size_t i = 0; i < texts.size(); ++i)
            m[i].data = texts[i];
        md5Many(m.data(), m.size());
        QCOMPARE(hex(m[0].digest), std::string("d41d8cd98f00b204e9800998ecf8427e")); // RFC 1321
        QCOMPARE(hex(m[2].digest), std::string("900150983cd24fb0d6963f7d28e17f72"));
        QCOMPARE(hex(m[4].digest), std::string("57edf4a22be3c955ac49da2e2107b67a"));
    }

    void everyLengthUpTo300()
    {
        std::mt19937 rng(1);
        std::vector<std::string> texts;
        for (size_t n = 0; n <= 300; ++n) {
            std::string s(n, '\0');
            for (char& c : s)
                c = static_cast<char>(rng());
            texts.push_back(std::move(s));
        }
        checkBatch(texts);
    }

    // Long messages: many of them share the lanes; one among short ones goes to OpenSSL.
    void longMessages()
    {
        std::mt19937 rng(7);
        auto text = [&](size_t n) {
            std::string s(n, '\0');
            for (char& c : s)
                c = static_cast<char>(rng());
            return s;
        };
        std::vector<std::string> many;
        for (int i = 0; i < 40; ++i)
            many.push_back(text(100000 + rng() % 50000));
        checkBatch(many);
        std::vector<std::string> one { text(300000) };
        for (int i = 0; i < 30; ++i)
            one.push_back(text(rng() % 3000));
        checkBatch(one);
    }

    void batchSizes_data()
    {
        QTest::addColumn<int>("count");
        for (int n : { 1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 65, 1000 })
            QTest::newRow(std::to_string(n).c_str()) << n;
    }
    void batchSizes()
    {
        QFETCH(int, count);
        std::mt19937 rng(static_cast<unsigned>(count));
        std::vector<std::string> texts;
        for (int i = 0; i < count; ++i) {
            // Mostly short, some of several KB, now and then one of 70 KB.
            const size_t n = i % 97 == 5 ? 70000 + rng() % 5000
                : i % 7 == 0             ? rng() % 9000
                                         : rng() % 200;
            std::string s(n, '\0');
            for (char& c : s)
                c = static_cast<char>('a' + rng() % 26);
            texts.push_back(std::move(s));
        }
        checkBatch(texts);
    }
};

QTEST_GUILESS_MAIN(TestMd5Many)
#include "tst_md5many.moc"
