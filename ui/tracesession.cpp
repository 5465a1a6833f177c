#include "ui/tracesession.h"

#include "ui/backgroundjob.h"
#include "ui/compileselection.h"
#include "ui/traceloadcontroller.h"

#include <optional>

namespace dynascope::ui {

namespace {
const char* kPastedName = "pasted text";
const std::shared_ptr<const Trace> kNoTrace;
const std::vector<Finding> kNoFindings;

// The selected compile, told by its file and id (indices move when earlier files grow).
struct Kept {
    std::string file;
    CompileId id;
};
std::optional<Kept> keptOf(const Trace* t, uint32_t current)
{
    if (!t || current >= t->compiles.size())
        return std::nullopt;
    const Compile& c = t->compiles[current];
    return Kept { t->files[c.file].path, c.id };
}
uint32_t find(const Trace& t, const Kept& k)
{
    for (const Compile& c : t.compiles)
        if (c.id == k.id && t.files[c.file].path == k.file)
            return c.index;
    return kNone;
}
} // namespace

TraceSession::TraceSession(QObject* parent)
    : QObject(parent)
    , m_loader(new TraceLoadController(this))
    , m_liveJob(new BackgroundJob(this))
    , m_selection(new CompileSelection(this))
{
    connect(m_loader, &TraceLoadController::started, this,
        [this](quint64, const QStringList& paths) { Q_EMIT loadStarted(paths); });
    connect(m_loader, &TraceLoadController::progress, this,
        [this](quint64, double f, const QString& stage) { Q_EMIT loadProgress(f, stage); });
    connect(m_loader, &TraceLoadController::finished, this, &TraceSession::onLoadFinished);
    connect(m_loader, &TraceLoadController::cancelled, this, [this] {
        if (!m_loader->isRunning()) // else a newer load superseded the cancelled one
            Q_EMIT loadCancelled();
    });
}

TraceSession::~TraceSession() = default;

const std::shared_ptr<const Trace>& TraceSession::trace() const
{
    return m_facts ? m_facts->trace : kNoTrace;
}

const std::vector<Finding>& TraceSession::findings() const
{
    return m_facts ? m_facts->findings : kNoFindings;
}

const std::vector<Diagnostic>& TraceSession::diagnostics() const
{
    return m_facts ? m_facts->diagnostics : m_failed;
}

bool TraceSession::isLoading() const
{
    return m_loader->isRunning();
}

void TraceSession::waitForWorkers()
{
    m_loader->waitForWorker();
    m_liveJob->waitForWorker();
}

void TraceSession::open(const QStringList& paths, const LoadOptions& choice)
{
    if (!paths.isEmpty())
        start(paths, choice);
}

void TraceSession::openRun(const LoadOptions& choice)
{
    if (!m_paths.isEmpty())
        start(m_paths, choice);
}

void TraceSession::start(const QStringList& paths, const LoadOptions& choice)
{
    m_pasting.clear();
    m_loadingChoice = choice;
    // Payload hashes are checked as the files are scanned, on every core; the facts then report
    // what the load found instead of reading every payload again.
    LoadOptions options = choice;
    options.verifyPayloads = true;
    m_liveJob->cancel();
    m_loader->start(paths, options);
}

void TraceSession::openText(const QByteArray& text)
{
    m_pasting = text;
    m_liveJob->cancel();
    m_loader->startText(QString::fromLatin1(kPastedName), text);
}

void TraceSession::reload()
{
    if (!m_pasted.isEmpty())
        openText(m_pasted);
    else if (!m_paths.isEmpty())
        start(m_paths, m_runChoice); // the same run again
}

void TraceSession::cancel()
{
    m_loader->cancel();
}

void TraceSession::onLoadFinished(const LoadOutcome& outcome)
{
    const QStringList errors = outcome.errorMessages();
    m_lastLoadUs = outcome.elapsedUs;
    if (outcome.result.trace) {
        const bool reload = m_facts && outcome.paths == m_paths && m_pasting == m_pasted;
        m_paths = outcome.paths;
        m_pasted = m_pasting; // the text a Reload reads again; empty after opening files
        m_runChoice = m_loadingChoice;
        apply(outcome.facts ? outcome.facts : computeTraceFacts(outcome.result.trace),
            reload ? TraceChange::Reloaded : TraceChange::Opened);
    } else if (!m_facts) {
        // Nothing could be read and nothing was open: the errors say why.
        m_failed.assign(outcome.result.errors.begin(), outcome.result.errors.end());
    }
    // else: nothing could be read; the trace that was open stays, as it was.
    Q_EMIT loadFinished(
        errors.isEmpty() && outcome.result.trace, errors, outcome.result.trace != nullptr);
}

void TraceSession::showLive(
    std::shared_ptr<const Trace> trace, const QStringList& paths, bool final)
{
    if (!trace || m_loader->isRunning())
        return;
    m_liveJob->start<std::shared_ptr<const TraceFacts>>(
        [trace](std::stop_token stop) { return computeTraceFacts(trace, stop); },
        [this, paths, final](JobOutcome<std::shared_ptr<const TraceFacts>> outcome) {
            if (!outcome.value || !*outcome.value || m_loader->isRunning())
                return;
            const bool same = m_facts && m_pasted.isEmpty() && paths == m_paths;
            m_paths = paths;
            m_pasted.clear();
            m_pasting.clear();
            m_runChoice = {};
            apply(*outcome.value, same ? TraceChange::Live : TraceChange::Opened);
            Q_EMIT liveShown(final, paths);
        });
}

void TraceSession::apply(std::shared_ptr<const TraceFacts> facts, TraceChange change)
{
    // The compile selected before, found again after a reload or a live update.
    const std::optional<Kept> kept = change == TraceChange::Reloaded || change == TraceChange::Live
        ? keptOf(trace().get(), m_selection->current())
        : std::nullopt;
    m_facts = facts && facts->trace ? std::move(facts) : nullptr;
    m_failed.clear();
    if (!m_facts)
        change = TraceChange::Closed;
    // Nothing is selected while the views change; then every view gets the new trace.
    m_selection->clear();
    Q_EMIT traceChanged(trace(), change);
    if (kept && m_facts)
        m_selection->setCurrent(find(*m_facts->trace, *kept));
}

} // namespace dynascope::ui
