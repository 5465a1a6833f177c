// Untrusted text stays text: a trace whose function names, file paths, reasons, guards, kinds,
// span names and diagnostics all hold `<b>bold</b><a href="file:///etc/passwd">x</a>` is opened
// in the real MainWindow (offscreen); every compile is selected in turn and every widget, item
// model and tooltip is read back. Whatever shows trace text must show it literally: QLabels are
// Qt::PlainText (or their text is not taken for rich text), documents show the tags as text and
// hold no link to the file, item models return the literal strings, and tooltips (which Qt
// renders as rich text when Qt::mightBeRichText() says so) show the literal text too.
//
// The test only uses MainWindow's public API and walks the widget tree, so it keeps working as
// the inspector grows new tabs.
#include "ui/mainwindow.h"
#include "ui/timeline/timelineview.h"

#include "core/util/md5.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextEdit>

#include <fstream>

using namespace dynascope;
using namespace dynascope::ui;

namespace {

const QString kMarkup = QStringLiteral("<b>bold</b><a href=\"file:///etc/passwd\">x</a>");
const char* const kJsonMarkup = "<b>bold</b><a href=\\\"file:///etc/passwd\\\">x</a>";

std::string header(const std::string& json)
{
    return "V0314 10:41:02.000000 4242 torch/_dynamo/x.py:1] " + json + "\n";
}

std::string withPayload(const std::string& json, const std::string& payload)
{
    std::string out = header(json + ", \"has_payload\": \"" + md5Hex(payload) + "\"}");
    size_t pos = 0;
    while (true) {
        size_t nl = payload.find('\n', pos);
        out += "\t" + payload.substr(pos, nl == std::string::npos ? nl : nl - pos) + "\n";
        if (nl == std::string::npos)
            break;
        pos = nl + 1;
    }
    return out;
}

// Every place a trace string reaches the GUI, with the markup at the start of the text (where
// Qt::mightBeRichText looks).
std::string hostileTrace()
{
    const std::string m = kJsonMarkup;
    const std::string raw = "<b>bold</b><a href=\"file:///etc/passwd\">x</a>";
    auto ids = [](int f, int c) {
        return ", \"frame_id\": " + std::to_string(f)
            + ", \"frame_compile_id\": " + std::to_string(c) + ", \"attempt\": 0";
    };
    auto chromium = [&](const std::string& name, char ph, double ts, int f, int c) {
        return withPayload("{\"chromium_event\": {}" + ids(f, c),
            "{\"name\": \"" + name + "\", \"ts\": " + std::to_string(ts) + ", \"ph\": \"" + ph
                + "\", \"pid\": 0, \"tid\": 0, \"cat\": \"" + m + "\"}");
    };
    const double t0 = 1773484862000000.0;
    std::string s;
    s += header("{\"str\": [\"/" + m + ".py\", 0]}");
    s += chromium("dynamo", 'B', t0, 0, 0);
    s += header("{\"dynamo_start\": {\"stack\": [{\"line\": 3, \"name\": \"" + m
        + "\", \"filename\": 0, \"loc\": \"" + m + "\"}]}" + ids(0, 0) + "}");
    s += chromium(m, 'B', t0 + 10, 0, 0);
    s += chromium(m, 'E', t0 + 20, 0, 0);
    s += withPayload("{\"artifact\": {\"name\": \"dynamo_graph_break_reason\", \"encoding\": "
                     "\"string\"}"
            + ids(0, 0),
        raw + "\nGraph break in user code at /" + raw + ".py:3\nGraph Break Reason: " + raw
            + "\nUser code traceback:\n  File \"/" + raw + ".py\", line 3, in " + raw);
    s += withPayload("{\"dynamo_cpp_guards_str\": {}" + ids(0, 0),
        "TREE_GUARD_MANAGER:\n+- RootGuardManager\n| +- GuardManager: source=L['" + raw
            + "'], accessed_by=DictGetItemGuardAccessor('x')\n| | +- TENSOR_MATCH: check_tensor(L['"
            + raw
            + "'], Tensor, DispatchKeySet(CPU), torch.float32, device=None, "
              "requires_grad=False, size=[2, 2], stride=[2, 1])  # "
            + raw + ".py:3 in f");
    s += withPayload(
        "{\"artifact\": {\"name\": \"" + m + "\", \"encoding\": \"string\"}" + ids(0, 0), raw);
    s += header("{\"" + m + "\": {\"x\": \"" + m + "\"}" + ids(0, 0) + "}");
    s += header("{\"compilation_metrics\": {\"co_name\": \"" + m + "\", \"co_filename\": \"/" + m
        + ".py\", \"co_firstlineno\": 3, \"graph_op_count\": 1, \"restart_reasons\": [\"" + m
        + "\"], \"fail_type\": \"" + m + "\", \"fail_reason\": \"" + m
        + "\", \"fail_user_frame_filename\": \"/" + m + ".py\", \"fail_user_frame_lineno\": 3}"
        + ids(0, 0) + "}");
    s += withPayload(
        "{\"artifact\": {\"name\": \"dynamo_error\", \"encoding\": \"string\"}" + ids(0, 0),
        raw + "\nTraceback");
    s += chromium("dynamo", 'E', t0 + 100, 0, 0);
    // A recompile whose reason names the guard above.
    s += withPayload(
        "{\"artifact\": {\"name\": \"recompile_reasons\", \"encoding\": \"json\"}" + ids(0, 1),
        "[\"0/0: tensor 'L['" + m + "']' size mismatch at index 0. expected 2, actual 3 " + m
            + "\"]");
    s += chromium("dynamo", 'B', t0 + 200, 0, 1);
    s += header("{\"dynamo_start\": {\"stack\": [{\"line\": 3, \"name\": \"" + m
        + "\", \"filename\": 0}]}" + ids(0, 1) + "}");
    s += header("{\"guard_added_fast\": {\"expr\": \"" + m
        + "\", \"user_stack\": [{\"line\": 3, "
          "\"name\": \""
        + m + "\", \"filename\": 0}]}" + ids(0, 1) + "}");
    s += header("{\"compilation_metrics\": {\"co_name\": \"" + m + "\", \"co_filename\": \"/" + m
        + ".py\", \"co_firstlineno\": 3, \"graph_op_count\": 1, \"recompile_reason\": \"" + m
        + "\"}" + ids(0, 1) + "}");
    s += chromium("dynamo", 'E', t0 + 300, 0, 1);
    s += header("{\"link\": {\"name\": \"" + m + "\", \"url\": \"file:///etc/passwd\"}}");
    s += raw + " is not a record\n"; // a diagnostic that quotes the line
    return s;
}

// What a user sees of `text` shown with `format` (tooltips and AutoText labels guess).
QString shown(const QString& text, Qt::TextFormat format)
{
    if (format == Qt::PlainText || (format == Qt::AutoText && !Qt::mightBeRichText(text)))
        return text;
    QTextDocument doc;
    doc.setHtml(text);
    return doc.toPlainText();
}

// A string that carries the trace's text must show the markup literally.
bool literal(const QString& text, Qt::TextFormat format)
{
    if (!text.contains(QLatin1String("bold")))
        return true; // no trace text here
    return shown(text, format).contains(QLatin1String("<b>bold</b>"));
}

bool hasLinkTo(const QTextDocument* doc, QLatin1String target)
{
    for (QTextBlock b = doc->begin(); b.isValid(); b = b.next())
        for (auto it = b.begin(); !it.atEnd(); ++it)
            if (it.fragment().charFormat().anchorHref().contains(target))
                return true;
    return false;
}

QString where(const QWidget* w)
{
    return QString::fromLatin1(w->metaObject()->className()) + QLatin1Char(' ') + w->objectName();
}

} // namespace

class TestUntrustedText : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QStringList m_problems; // must be empty
    QStringList m_tooltipProblems; // tooltips that render trace text, must be empty too
    int m_literalSeen = 0; // places that showed the markup literally (the test saw something)

    void checkModel(
        const QAbstractItemModel* m, const QModelIndex& parent, const QString& ctx, int depth = 0)
    {
        if (depth > 6)
            return;
        const int rows = std::min(m->rowCount(parent), 200);
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < m->columnCount(parent); ++c) {
                const QModelIndex i = m->index(r, c, parent);
                const QString display = i.data(Qt::DisplayRole).toString();
                if (!literal(display, Qt::PlainText))
                    m_problems << ctx + QStringLiteral(" display: ") + display;
                else if (display.contains(kMarkup))
                    ++m_literalSeen;
                const QString tip = i.data(Qt::ToolTipRole).toString();
                if (!literal(tip, Qt::AutoText))
                    m_tooltipProblems << ctx + QStringLiteral(" tooltip: ") + tip.left(120);
                if (c == 0 && m->hasChildren(i))
                    checkModel(m, i, ctx, depth + 1);
            }
    }

    void checkWidgets(QWidget* root, const QString& ctx)
    {
        for (QWidget* w : root->findChildren<QWidget*>()) {
            const QString at = ctx + QStringLiteral(": ") + where(w);
            if (!literal(w->toolTip(), Qt::AutoText))
                m_tooltipProblems << at + QStringLiteral(" tooltip");
            if (auto* l = qobject_cast<QLabel*>(w)) {
                if (!literal(l->text(), l->textFormat()))
                    m_problems << at + QStringLiteral(" shows rich text: ") + l->text().left(120);
                if (l->text().contains(QLatin1String("bold")) && l->openExternalLinks())
                    m_problems << at + QStringLiteral(" opens external links");
                m_literalSeen += l->text().contains(kMarkup);
            } else if (auto* e = qobject_cast<QTextEdit*>(w)) {
                const QString text = e->document()->toPlainText();
                if (text.contains(QLatin1String("bold"))
                    && !text.contains(QLatin1String("<b>bold</b>")))
                    m_problems << at + QStringLiteral(" renders the markup: ") + text.left(120);
                if (hasLinkTo(e->document(), QLatin1String("etc/passwd")))
                    m_problems << at + QStringLiteral(" holds a link to file:///etc/passwd");
                m_literalSeen += text.contains(kMarkup);
            } else if (auto* p = qobject_cast<QPlainTextEdit*>(w)) {
                m_literalSeen += p->toPlainText().contains(kMarkup);
            } else if (auto* v = qobject_cast<QAbstractItemView*>(w)) {
                if (v->model())
                    checkModel(v->model(), {}, at);
            }
        }
    }

private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("DynascopeTests"));
        QVERIFY(m_dir.isValid());
    }

    void traceTextIsShownLiterally()
    {
        const QString path = m_dir.filePath(QStringLiteral("dedicated_log_torch_trace_rank_0.log"));
        {
            std::ofstream f(path.toStdString(), std::ios::binary);
            f << hostileTrace();
        }
        MainWindow w(MainWindow::Options { false });
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy spy(&w, &MainWindow::loadFinished);
        w.openPaths({ path });
        QVERIFY(spy.wait(60000));
        QVERIFY(w.trace());
        QCOMPARE(w.trace()->compiles.size(), size_t(2));

        for (const char* id : { "[0/0]", "[0/1]" }) {
            QVERIFY(w.selectCompile(QString::fromLatin1(id)));
            QTest::qWait(50);
            checkWidgets(&w, QString::fromLatin1(id));
            // The timeline's tooltips, all over it.
            if (TimelineView* tl = w.timeline()) {
                for (int y = 0; y < tl->height(); y += 6)
                    for (int x = 0; x < tl->width(); x += 12) {
                        const QString tip = tl->toolTipAt(QPoint(x, y));
                        if (!literal(tip, Qt::AutoText))
                            m_tooltipProblems
                                << QStringLiteral("timeline tooltip: ") + tip.left(120);
                    }
            }
        }
        // Every other top-level window (docks floated, dialogs) too.
        for (QWidget* top : QApplication::topLevelWidgets())
            if (top != &w && top->isVisible())
                checkWidgets(top, QStringLiteral("top level"));

        m_problems.removeDuplicates();
        m_tooltipProblems.removeDuplicates();
        QVERIFY2(
            m_literalSeen > 0, "no widget showed the trace's text at all: the test saw nothing");
        QVERIFY2(m_problems.isEmpty(), qPrintable(m_problems.join(QLatin1Char('\n'))));
        // Tooltips: Qt renders one as rich text when Qt::mightBeRichText() says so; the UI
        // passes trace text through plainToolTip() (ui/plaintooltip.h).
        QVERIFY2(m_tooltipProblems.isEmpty(),
            qPrintable(m_tooltipProblems.mid(0, 5).join(QLatin1Char('\n'))));
    }
};

QTEST_MAIN(TestUntrustedText)
#include "tst_untrustedtext.moc"
