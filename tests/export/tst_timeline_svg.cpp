// The SVG timeline (core/export/timeline_svg.h): the picture parses as XML with an <svg> root
// (xmlns, width, height, viewBox); every compile with a time has one rect with a <title> naming
// its id (merged rects count their compiles); the app's status colours on a known graph break,
// failure and recompile of the bundled example and the recordings; rank headers for two ranks;
// hostile trace text comes out escaped, cut and without control characters, and the picture has
// no script, event attribute, foreignObject, link or id; a highlight fades the other compiles;
// maxLanes keeps the highlighted frames, then those with trouble, then the busiest, and counts
// the others; 100,000 compiles give a picture under 2 MB. The same checks run on ../shared/traces
// when it is there.
#include "core/export/svg_text.h"
#include "core/export/timeline_svg.h"
#include "core/load/loader.h"
#include "core/writer/trace_writer.h"

#include <QDir>
#include <QDirIterator>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

#include <fstream>

using namespace dynascope;

namespace {
const QString kRecordings
    = QString::fromUtf8(DYNASCOPE_SOURCE_DIR) + u"/tests/scenarios/recorded/torch-2.13.0"_qs;

struct Rect {
    QMap<QString, QString> attrs;
    QString title;
};

// What a picture holds, as an XML reader sees it.
struct Svg {
    QString error; // empty when it parsed
    QMap<QString, QString> root;
    std::vector<Rect> compiles; // rects with a <title>
    QStringList texts; // every <text>, its tspans joined
    QStringList elements; // every element name
    QStringList attributes; // every attribute name
    int paths(const QString& attr, const QString& value) const
    {
        return counts.value(attr + value);
    }
    QMap<QString, int> counts; // path/circle attribute=value -> count
};

Svg parse(const std::string& text)
{
    Svg svg;
    QXmlStreamReader xml(QByteArray::fromStdString(text));
    QString currentText;
    int textDepth = 0;
    bool inTitle = false;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            const QString name = xml.name().toString();
            svg.elements << name;
            QMap<QString, QString> attrs;
            for (const auto& a : xml.attributes()) {
                svg.attributes << a.qualifiedName().toString();
                attrs[a.qualifiedName().toString()] = a.value().toString();
            }
            if (name == u"svg"_qs && svg.elements.size() == 1) {
                svg.root = attrs;
                svg.root[u"xmlns"_qs] = xml.namespaceUri().toString();
            }
            if (name == u"rect"_qs)
                svg.compiles.push_back({ attrs, {} });
            if (name == u"path"_qs || name == u"circle"_qs)
                for (auto it = attrs.begin(); it != attrs.end(); ++it)
                    ++svg.counts[it.key() + it.value()];
            if (name == u"title"_qs)
                inTitle = true;
            if (name == u"text"_qs && textDepth++ == 0)
                currentText.clear();
        } else if (xml.isCharacters()) {
            if (inTitle)
                svg.compiles.back().title += xml.text();
            else if (textDepth > 0)
                currentText += xml.text();
        } else if (xml.isEndElement()) {
            if (xml.name() == u"title"_qs)
                inTitle = false;
            if (xml.name() == u"text"_qs && --textDepth == 0)
                svg.texts << currentText;
        }
    }
    if (xml.hasError())
        svg.error = xml.errorString() + u" at line "_qs + QString::number(xml.lineNumber());
    std::erase_if(svg.compiles, [](const Rect& r) { return r.title.isEmpty(); });
    return svg;
}

bool timed(const Compile& c)
{
    return c.timeSource != TimeSource::None && c.startUs > 0 && c.endUs >= c.startUs;
}

size_t timedCount(const Trace& t)
{
    return static_cast<size_t>(std::count_if(t.compiles.begin(), t.compiles.end(), timed));
}

// The compiles a rect stands for: 1, or the count its merged title starts with.
size_t compilesIn(const Rect& r)
{
    static const QRegularExpression merged(u"^(\\d+) compiles less than a pixel apart"_qs);
    const auto m = merged.match(r.title);
    return m.hasMatch() ? m.captured(1).toULongLong() : 1;
}

const Rect* rectOf(const Svg& svg, const std::string& id)
{
    const QString prefix = QString::fromStdString(id) + u" "_qs;
    for (const Rect& r : svg.compiles)
        if (r.title.startsWith(prefix))
            return &r;
    return nullptr;
}

// What every picture must be: XML with a sized <svg> root, nothing active, and (all lanes drawn)
// one titled rect per timed compile, each title naming its compile.
void checkPicture(const Trace& t, const std::string& text, const QString& label)
{
    const Svg svg = parse(text);
    QVERIFY2(svg.error.isEmpty(), qPrintable(label + u": "_qs + svg.error));
    QCOMPARE(svg.root.value(u"xmlns"_qs), u"http://www.w3.org/2000/svg"_qs);
    QVERIFY(svg.root.value(u"width"_qs).endsWith(u"px"_qs));
    QVERIFY(svg.root.value(u"height"_qs).endsWith(u"px"_qs));
    QVERIFY(svg.root.value(u"viewBox"_qs).startsWith(u"0 0 "_qs));
    QCOMPARE(svg.root.value(u"font-family"_qs), u"sans-serif"_qs);
    for (const char* bad : { "script", "foreignObject", "a", "image", "use", "style", "iframe" })
        QVERIFY2(!svg.elements.contains(QString::fromUtf8(bad)), qPrintable(label));
    for (const QString& a : svg.attributes)
        QVERIFY2(!a.startsWith(u"on"_qs) && !a.contains(u"href"_qs) && a != u"id"_qs,
            qPrintable(label + u": attribute "_qs + a));
    QVERIFY2(!QString::fromStdString(text).contains(u"<script"_qs, Qt::CaseInsensitive),
        qPrintable(label));
    size_t drawn = 0;
    for (const Rect& r : svg.compiles)
        drawn += compilesIn(r);
    QVERIFY2(drawn == timedCount(t),
        qPrintable(label + u": "_qs + QString::number(drawn) + u" compiles drawn, "_qs
            + QString::number(timedCount(t)) + u" timed"_qs));
    if (timedCount(t) <= kTimelineMergeAbove) {
        QCOMPARE(svg.compiles.size(), timedCount(t));
        for (const Compile& c : t.compiles)
            if (timed(c))
                QVERIFY2(rectOf(svg, c.id.display() + " #" + std::to_string(c.index)),
                    qPrintable(
                        label + u": no rect for "_qs + QString::fromStdString(c.id.display())));
    }
}

std::shared_ptr<const Trace> loadTrace(const QString& path)
{
    auto r = load({ path.toStdString() });
    return r.trace;
}

std::shared_ptr<const Trace> example()
{
    return loadTrace(
        QString::fromUtf8(DYNASCOPE_SOURCE_DIR) + u"/resources/examples/example.log"_qs);
}

// A trace of `frames` frames; frame f has compiles[f] compiles, 1 ms apart, 0.4 ms long.
std::string writeManyCompiles(const QString& path, const std::vector<int>& compiles)
{
    std::ofstream out(path.toStdString(), std::ios::binary);
    TraceWriter w(out, 7, 1773484862000000);
    const std::vector<WriteFrame> stack { { 3, "step", "/home/alice/train.py", "" } };
    int64_t t = 1773484862000000;
    for (size_t f = 0; f < compiles.size(); ++f)
        for (int i = 0; i < compiles[f]; ++i) {
            auto ctx = WriteContext::forCompile({ std::nullopt, int64_t(f), i, 0 });
            w.dynamoStart(ctx, stack);
            w.write("compilation_metrics",
                "{\"co_name\": \"step\", \"start_time_us\": " + std::to_string(t)
                    + ", \"end_time_us\": " + std::to_string(t + 400) + "}",
                ctx);
            t += 1000;
        }
    return path.toStdString();
}
} // namespace

class TestTimelineSvg : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void text()
    {
        QCOMPARE(svg::text("a\x01\tb\xe2\x80\xae"
                           "c\x7f",
                     10),
            std::string("a bc"));
        QCOMPARE(svg::text("<&>\"'", 10), std::string("&lt;&amp;&gt;&quot;&#39;"));
        QCOMPARE(svg::text("ab\xff", 10), std::string("ab\xef\xbf\xbd"));
        QCOMPARE(svg::text("abcdefgh", 4), std::string("abc\xe2\x80\xa6"));
        QCOMPARE(svg::text("one\ntwo", 20), std::string("one two"));
        QCOMPARE(svg::text("one\ntwo", 20, true), std::string("one\ntwo"));
        QCOMPARE(svg::text("\xef\xbf\xbf"
                           "x",
                     5),
            std::string("x")); // U+FFFF is not XML
        QCOMPARE(svg::num(12.04), std::string("12"));
        QCOMPARE(svg::num(-0.04), std::string("0"));
        QCOMPARE(svg::num(3.25), std::string("3.3"));
    }

    void ticks()
    {
        auto labels = [](double span, int n) {
            QStringList l;
            for (const auto& t : svg::ticks(span, n))
                l << QString::fromStdString(t.label);
            return l.join(u","_qs);
        };
        QCOMPARE(labels(11.6e6, 5), u"0,5 s,10 s"_qs);
        QCOMPARE(labels(2.5e6, 5), u"0,0.5 s,1 s,1.5 s,2 s,2.5 s"_qs);
        QCOMPARE(labels(45e3, 4), u"0,20 ms,40 ms"_qs);
        QCOMPARE(labels(900, 3), u"0,500 µs"_qs);
        QCOMPARE(labels(40 * 60e6, 4), u"0,10 min,20 min,30 min,40 min"_qs);
        QCOMPARE(labels(5 * 3600e6, 5), u"0,1 h,2 h,3 h,4 h,5 h"_qs);
    }

    void bundledExample()
    {
        auto t = example();
        QVERIFY(t);
        const std::string text = timelineSvg(*t);
        checkPicture(*t, text, u"example"_qs);
        const Svg svg = parse(text);
        QCOMPARE(svg.compiles.size(), size_t(6));
        // [1/0] step breaks, [4/0] export_step fails, [3/1] scale recompiles: the app's colours.
        const Rect* ok = rectOf(svg, "[0/0]");
        const Rect* gb = rectOf(svg, "[1/0]");
        const Rect* error = rectOf(svg, "[4/0]");
        const Rect* recompile = rectOf(svg, "[3/1]");
        QVERIFY(ok && gb && error && recompile);
        QCOMPARE(ok->attrs.value(u"fill"_qs), u"#009E73"_qs);
        QCOMPARE(gb->attrs.value(u"fill"_qs), u"#E69F00"_qs);
        QVERIFY(gb->title.contains(u"graph break: "_qs));
        QCOMPARE(error->attrs.value(u"fill"_qs), u"#D55E00"_qs);
        QVERIFY(error->title.contains(u"failure: "_qs));
        QCOMPARE(recompile->attrs.value(u"stroke"_qs), u"#0072B2"_qs);
        QVERIFY(recompile->title.contains(u"recompile: "_qs));
        QVERIFY(ok->title.contains(u"forward"_qs));
        // Not colour alone: a triangle for the break, a cross for the failure, a ring for the
        // recompile (each once on the lanes, once in the legend).
        QCOMPARE(svg.paths(u"fill"_qs, u"#E69F00"_qs), 2);
        QCOMPARE(svg.paths(u"stroke"_qs, u"#D55E00"_qs), 2);
        QCOMPARE(svg.paths(u"stroke"_qs, u"#0072B2"_qs), 2);
        for (const char* word : { "ok", "graph break", "error", "recompile" })
            QVERIFY2(svg.texts.contains(QString::fromUtf8(word)), word);
        // Lanes are labelled with the function and its file:line; no rank header for one file.
        QVERIFY(std::any_of(svg.texts.begin(), svg.texts.end(),
            [](const QString& s) { return s.startsWith(u"export_step example.py:"_qs); }));
        QVERIFY(!std::any_of(svg.texts.begin(), svg.texts.end(),
            [](const QString& s) { return s.startsWith(u"rank "_qs); }));
        QVERIFY(svg.texts.contains(u"0"_qs) && svg.texts.contains(u"10 s"_qs));
    }

    void recordings_data()
    {
        QTest::addColumn<QString>("path");
        const QDir dir(kRecordings);
        if (!dir.exists())
            QSKIP(qPrintable(u"recordings not found: "_qs + kRecordings));
        for (const QString& name : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot))
            QTest::newRow(qPrintable(name)) << dir.filePath(name);
    }
    void recordings()
    {
        QFETCH(QString, path);
        auto t = loadTrace(path);
        QVERIFY(t && !t->compiles.empty());
        TimelineSvgOptions options;
        options.maxLanes = 1000;
        const std::string text = timelineSvg(*t, options);
        checkPicture(*t, text, path);
        const Svg svg = parse(text);
        const QString name = QFileInfo(path).fileName();
        auto withFill = [&](const QString& fill, const QString& words) {
            return std::any_of(svg.compiles.begin(), svg.compiles.end(), [&](const Rect& r) {
                return r.attrs.value(u"fill"_qs) == fill && r.title.contains(words);
            });
        };
        if (name == u"backend_raises"_qs)
            QVERIFY(withFill(u"#D55E00"_qs, u"failure: BackendCompilerFailed"_qs));
        if (name == u"graph_break_item"_qs)
            QVERIFY(withFill(u"#E69F00"_qs, u"graph break: "_qs));
        if (name == u"two_ranks_gloo"_qs) {
            QVERIFY(std::any_of(svg.texts.begin(), svg.texts.end(),
                [](const QString& s) { return s.startsWith(u"rank 0 · "_qs); }));
            QVERIFY(std::any_of(svg.texts.begin(), svg.texts.end(),
                [](const QString& s) { return s.startsWith(u"rank 1 · "_qs); }));
        }
    }

    void realTraces()
    {
        const QString root = QString::fromUtf8(DYNASCOPE_SHARED_TRACES);
        if (!QFileInfo::exists(root))
            QSKIP(qPrintable(u"real traces not available: "_qs + root
                + u" does not exist (it comes with the workplace's shared/ folder)"_qs));
        QDirIterator it(
            root, { u"dedicated_log_torch_trace*"_qs }, QDir::Files, QDirIterator::Subdirectories);
        int seen = 0;
        while (it.hasNext()) {
            const QString path = it.next();
            auto t = loadTrace(path);
            if (!t)
                continue;
            TimelineSvgOptions options;
            options.maxLanes = 1000;
            checkPicture(*t, timelineSvg(*t, options), path);
            ++seen;
        }
        QVERIFY(seen > 0);
    }

    void hostileText()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(u"hostile.log"_qs).toStdString();
        const std::string fn = "<script>alert(1)</script>&\"'";
        const std::string dirty = fn + "\x01\x1b[31m\xe2\x80\xae" + std::string(300, 'x');
        {
            std::ofstream out(path, std::ios::binary);
            TraceWriter w(out, 7, 1773484862000000);
            for (int i = 0; i < 2; ++i) {
                auto ctx = WriteContext::forCompile({ std::nullopt, i, 0, 0 });
                const std::string name = i == 0 ? fn : dirty;
                w.chromiumEvent(ctx, "dynamo", "B");
                w.dynamoStart(ctx, { { 5, name, "/home/\"><img src=x onerror=alert(2)>.py", "" } });
                w.artifact(ctx, "dynamo_graph_break_reason", "string",
                    "Graph Break Reason: <script>alert(3)</script>\nUser code traceback:\n");
                w.advanceUs(5000);
                w.chromiumEvent(ctx, "dynamo", "E");
            }
        }
        auto t = loadTrace(QString::fromStdString(path));
        QVERIFY(t && t->compiles.size() == 2);
        TimelineSvgOptions options;
        options.title = "</text><script>alert(4)</script>";
        const std::string text = timelineSvg(*t, options);
        checkPicture(*t, text, u"hostile"_qs);
        QVERIFY(text.find("<img") == std::string::npos);
        QVERIFY(text.find("&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;&#39;")
            != std::string::npos);
        const Svg svg = parse(text);
        // The reader unescapes: the names read back as they were, control characters gone.
        const QString name = QString::fromStdString(fn);
        QVERIFY(svg.texts.contains(u"</text><script>alert(4)</script>"_qs));
        QVERIFY(std::any_of(svg.texts.begin(), svg.texts.end(),
            [&](const QString& s) { return s.startsWith(name); }));
        QVERIFY(svg.compiles[0].title.contains(name));
        QVERIFY(svg.compiles[0].title.contains(u"graph break: "_qs));
        QVERIFY(svg.compiles[0].title.contains(u"<script>alert(3)"_qs));
        for (const QString& s : svg.texts) {
            QVERIFY(
                !s.contains(QChar(0x1b)) && !s.contains(QChar(0x202e)) && !s.contains(QChar(1)));
            QVERIFY2(s.size() <= 200, qPrintable(s)); // labels 40, titles 200
        }
        for (const Rect& r : svg.compiles)
            for (const QString& line : r.title.split(u'\n'))
                QVERIFY(line.size() <= 200);
        // The long name is cut (labels hold at most 40 characters), its escape sequence gone.
        QVERIFY(std::any_of(svg.texts.begin(), svg.texts.end(), [&](const QString& s) {
            return s.startsWith(name + u"["_qs) && s.contains(u"…"_qs) && s.size() <= 40;
        }));
    }

    void highlight()
    {
        auto t = example();
        QVERIFY(t);
        TimelineSvgOptions options;
        options.highlight = { 1 };
        const Svg svg = parse(timelineSvg(*t, options));
        QVERIFY(svg.error.isEmpty());
        for (const Rect& r : svg.compiles) {
            if (r.title.startsWith(u"[1/0] #1 "_qs)) {
                QVERIFY(!r.attrs.contains(u"opacity"_qs));
                QCOMPARE(r.attrs.value(u"stroke"_qs), u"#1a1a1a"_qs);
            } else {
                QCOMPARE(r.attrs.value(u"opacity"_qs), u"0.28"_qs);
            }
        }
        QVERIFY(svg.texts.contains(u"highlighted (others faded)"_qs));
        // Without a highlight nothing is faded.
        for (const Rect& r : parse(timelineSvg(*t)).compiles)
            QVERIFY(!r.attrs.contains(u"opacity"_qs));
    }

    void maxLanes()
    {
        auto t = example();
        QVERIFY(t);
        QCOMPARE(t->frames.size(), size_t(5));
        TimelineSvgOptions options;
        options.maxLanes = 2;
        const std::string capped = timelineSvg(*t, options);
        Svg svg = parse(capped);
        QVERIFY(svg.error.isEmpty());
        QVERIFY(svg.texts.contains(u"+3 more frames (3 compiles) not shown"_qs));
        // Frames with trouble before clean ones (forward compiled once, fine, and is dropped
        // though it is first): the busiest of them (scale: 2 compiles, a recompile), then the
        // first of the others (step, its graph break).
        QCOMPARE(svg.compiles.size(), size_t(3));
        QVERIFY(rectOf(svg, "[3/0]") && rectOf(svg, "[3/1]") && rectOf(svg, "[1/0]"));
        QVERIFY(!rectOf(svg, "[0/0]"));
        // A highlighted frame is kept before busier ones.
        options.highlight = { 5 };
        svg = parse(timelineSvg(*t, options));
        QCOMPARE(svg.compiles.size(), size_t(3));
        QVERIFY(rectOf(svg, "[4/0]") && rectOf(svg, "[3/0]") && !rectOf(svg, "[0/0]"));
        // The height follows the lanes.
        const Svg all = parse(timelineSvg(*t));
        QVERIFY(all.root.value(u"height"_qs).chopped(2).toInt()
            > parse(capped).root.value(u"height"_qs).chopped(2).toInt() + 2 * 20);
    }

    void untimedCompiles()
    {
        auto t = example();
        QVERIFY(t);
        Trace copy = *t;
        copy.compiles[2].timeSource = TimeSource::None;
        const std::string text = timelineSvg(copy);
        checkPicture(copy, text, u"untimed"_qs);
        const Svg svg = parse(text);
        QCOMPARE(svg.compiles.size(), size_t(5));
        QVERIFY(!rectOf(svg, "[2/0]"));
        QVERIFY(svg.texts.contains(u"1 compile without a time not drawn"_qs));
        // Nothing timed at all: no rect, no axis, still a valid picture.
        for (Compile& c : copy.compiles)
            c.timeSource = TimeSource::None;
        const Svg none = parse(timelineSvg(copy));
        QVERIFY(none.error.isEmpty());
        QVERIFY(none.compiles.empty());
        QVERIFY(none.texts.contains(u"6 compiles without a time not drawn"_qs));
        QVERIFY(none.texts.contains(u"no compile has a time"_qs));
        // An empty trace says so.
        const Svg empty = parse(timelineSvg(Trace {}));
        QVERIFY(empty.error.isEmpty());
        QVERIFY(empty.texts.contains(u"no compiles in this trace"_qs));
    }

    void width()
    {
        auto t = example();
        QVERIFY(t);
        for (int asked : { 100, 480, 720, 100000 }) {
            TimelineSvgOptions options;
            options.width = asked;
            const Svg svg = parse(timelineSvg(*t, options));
            const int w = std::clamp(asked, 320, 4000);
            QCOMPARE(svg.root.value(u"width"_qs), QString::number(w) + u"px"_qs);
            QVERIFY(svg.root.value(u"viewBox"_qs)
                        .startsWith(u"0 0 "_qs + QString::number(w) + u" "_qs));
            for (const Rect& r : svg.compiles)
                QVERIFY(
                    r.attrs.value(u"x"_qs).toDouble() + r.attrs.value(u"width"_qs).toDouble() <= w);
        }
    }

    void twoRanks()
    {
        auto t = loadTrace(kRecordings + u"/two_ranks_gloo"_qs);
        if (!t)
            QSKIP("two_ranks_gloo recording not found");
        QCOMPARE(t->files.size(), size_t(2));
        const Svg svg = parse(timelineSvg(*t));
        QVERIFY(svg.error.isEmpty());
        QCOMPARE(std::count_if(svg.texts.begin(), svg.texts.end(),
                     [](const QString& s) { return s.startsWith(u"rank "_qs); }),
            qsizetype(2));
    }

    void manyCompilesStaySmall()
    {
        // 100,000 compiles: 60,000 of one frame, then 40 frames of 1,000.
        QTemporaryDir dir;
        std::vector<int> compiles { 60000 };
        compiles.resize(41, 1000);
        auto t = loadTrace(
            QString::fromStdString(writeManyCompiles(dir.filePath(u"many.log"_qs), compiles)));
        QVERIFY(t);
        QCOMPARE(t->compiles.size(), size_t(100000));
        TimelineSvgOptions options;
        options.maxLanes = 1000;
        const std::string all = timelineSvg(*t, options);
        checkPicture(*t, all, u"100k, every lane"_qs);
        QVERIFY2(all.size() < 2'000'000, qPrintable(QString::number(all.size())));
        const std::string capped = timelineSvg(*t);
        QVERIFY2(capped.size() < 500'000, qPrintable(QString::number(capped.size())));
        const Svg svg = parse(capped);
        QVERIFY(svg.error.isEmpty());
        QVERIFY(svg.texts.contains(u"+29 more frames (29000 compiles) not shown"_qs));
        QVERIFY(std::any_of(svg.texts.begin(), svg.texts.end(),
            [](const QString& s) { return s.contains(u"less than a pixel apart share"_qs); }));
    }
};

QTEST_GUILESS_MAIN(TestTimelineSvg)
#include "tst_timeline_svg.moc"
