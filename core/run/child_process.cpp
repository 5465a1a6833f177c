// Process calls live here and only here (see child_process.h and tests/robustness/no_shell.cmake).
#include "core/run/child_process.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <spawn.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace dynascope::run {

namespace {

ExitStatus fromWaitStatus(int status)
{
    ExitStatus s;
    if (WIFSIGNALED(status)) {
        s.signaled = true;
        s.signal = WTERMSIG(status);
#ifdef WCOREDUMP
        s.coreDumped = WCOREDUMP(status);
#endif
    } else if (WIFEXITED(status)) {
        s.code = WEXITSTATUS(status);
    }
    return s;
}

// The child's environment: ours, with the options' changes.
std::vector<std::string> childEnvironment(const SpawnOptions& options)
{
    std::map<std::string, std::string> env;
    std::vector<std::string> order;
    for (char** e = environ; e && *e; ++e) {
        std::string_view kv(*e);
        const size_t eq = kv.find('=');
        if (eq == std::string_view::npos || eq == 0)
            continue;
        std::string key(kv.substr(0, eq));
        if (env.emplace(key, std::string(kv.substr(eq + 1))).second)
            order.push_back(key);
    }
    for (const auto& key : options.unsetEnvironment)
        env.erase(key);
    for (const auto& [key, value] : options.setEnvironment) {
        if (env.find(key) == env.end())
            order.push_back(key);
        env[key] = value;
    }
    std::vector<std::string> out;
    for (const auto& key : order) {
        auto it = env.find(key);
        if (it != env.end())
            out.push_back(key + "=" + it->second);
    }
    return out;
}

std::atomic<int> g_forwardTo { 0 };
std::atomic<int> g_lastSignal { 0 };
constexpr int kForwarded[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2 };
struct sigaction g_previous[std::size(kForwarded)];

void forwardHandler(int sig, siginfo_t* info, void*)
{
    g_lastSignal.store(sig);
    const int child = g_forwardTo.load();
    if (child <= 0)
        return;
    // si_code > 0: the kernel sent it (the terminal's Ctrl+C, Ctrl+\, hang-up) to the whole
    // foreground process group, the child included. Sent by the child itself: not back to it.
    if (info && (info->si_code > 0 || info->si_pid == child))
        return;
    const int saved = errno;
    ::kill(child, sig);
    errno = saved;
}

} // namespace

std::string signalName(int signal)
{
    static const std::map<int, const char*> names = {
        { SIGHUP, "SIGHUP" },
        { SIGINT, "SIGINT" },
        { SIGQUIT, "SIGQUIT" },
        { SIGILL, "SIGILL" },
        { SIGTRAP, "SIGTRAP" },
        { SIGABRT, "SIGABRT" },
        { SIGBUS, "SIGBUS" },
        { SIGFPE, "SIGFPE" },
        { SIGKILL, "SIGKILL" },
        { SIGUSR1, "SIGUSR1" },
        { SIGSEGV, "SIGSEGV" },
        { SIGUSR2, "SIGUSR2" },
        { SIGPIPE, "SIGPIPE" },
        { SIGALRM, "SIGALRM" },
        { SIGTERM, "SIGTERM" },
        { SIGCHLD, "SIGCHLD" },
        { SIGCONT, "SIGCONT" },
        { SIGSTOP, "SIGSTOP" },
        { SIGTSTP, "SIGTSTP" },
        { SIGTTIN, "SIGTTIN" },
        { SIGTTOU, "SIGTTOU" },
        { SIGXCPU, "SIGXCPU" },
        { SIGXFSZ, "SIGXFSZ" },
        { SIGSYS, "SIGSYS" },
    };
    auto it = names.find(signal);
    return it != names.end() ? it->second : "signal " + std::to_string(signal);
}

std::string ExitStatus::describe() const
{
    if (!signaled)
        return "exited with status " + std::to_string(code);
    std::string s = "was killed by " + signalName(signal);
    if (signal == SIGINT)
        s += " (Ctrl+C)";
    if (coreDumped)
        s += " (core dumped)";
    return s;
}

ChildProcess::ChildProcess(ChildProcess&& other) noexcept
    : m_pid(std::exchange(other.m_pid, 0))
    , m_status(std::exchange(other.m_status, std::nullopt))
{
}

ChildProcess& ChildProcess::operator=(ChildProcess&& other) noexcept
{
    m_pid = std::exchange(other.m_pid, 0);
    m_status = std::exchange(other.m_status, std::nullopt);
    return *this;
}

ChildProcess ChildProcess::spawn(const SpawnOptions& options, std::string* error, bool* notFound)
{
    ChildProcess child;
    if (notFound)
        *notFound = false;
    if (options.argv.empty() || options.argv.front().empty()) {
        if (error)
            *error = "no command to run";
        return child;
    }
    std::vector<std::string> envStrings = childEnvironment(options);
    std::vector<char*> envp;
    for (auto& s : envStrings)
        envp.push_back(s.data());
    envp.push_back(nullptr);
    std::vector<std::string> argvStrings = options.argv;
    std::vector<char*> argv;
    for (auto& s : argvStrings)
        argv.push_back(s.data());
    argv.push_back(nullptr);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (!options.workingDirectory.empty())
        posix_spawn_file_actions_addchdir_np(&actions, options.workingDirectory.c_str());
    if (!options.outputFile.empty()) {
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
        posix_spawn_file_actions_addopen(
            &actions, 1, options.outputFile.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
        posix_spawn_file_actions_adddup2(&actions, 1, 2);
    }
    // The child starts with an empty signal mask whatever this thread blocks (the GUI's threads
    // may block some); dispositions this process ignores stay ignored, as a shell leaves them.
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t empty;
    sigemptyset(&empty);
    posix_spawnattr_setsigmask(&attr, &empty);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK);

    pid_t pid = 0;
    const int rc = ::posix_spawnp(&pid, argv[0], &actions, &attr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    if (rc != 0) {
        if (error) {
            if (rc == ENOENT)
                *error = options.argv.front() + ": command not found";
            else
                *error = options.argv.front() + ": " + std::strerror(rc);
            if (rc == ENOENT && !options.workingDirectory.empty())
                *error += " (or the folder " + options.workingDirectory + " does not exist)";
        }
        if (notFound)
            *notFound = rc == ENOENT;
        return child;
    }
    child.m_pid = pid;
    return child;
}

std::optional<ExitStatus> ChildProcess::poll()
{
    if (m_status || m_pid <= 0)
        return m_status;
    int status = 0;
    const pid_t r = ::waitpid(m_pid, &status, WNOHANG);
    if (r == m_pid)
        m_status = fromWaitStatus(status);
    else if (r < 0 && errno == ECHILD)
        m_status = ExitStatus { false, 255, 0, false }; // reaped by someone else
    return m_status;
}

ExitStatus ChildProcess::wait()
{
    while (!m_status && m_pid > 0) {
        int status = 0;
        const pid_t r = ::waitpid(m_pid, &status, 0);
        if (r == m_pid)
            m_status = fromWaitStatus(status);
        else if (r < 0 && errno != EINTR)
            m_status = ExitStatus { false, 255, 0, false };
    }
    return m_status.value_or(ExitStatus { false, 255, 0, false });
}

bool ChildProcess::sendSignal(int signal)
{
    if (m_pid <= 0 || m_status)
        return false;
    return ::kill(m_pid, signal) == 0;
}

SignalForwarder::SignalForwarder(int childPid)
{
    g_lastSignal.store(0);
    g_forwardTo.store(childPid);
    struct sigaction sa { };
    sa.sa_sigaction = forwardHandler;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < std::size(kForwarded); ++i)
        ::sigaction(kForwarded[i], &sa, &g_previous[i]);
}

SignalForwarder::~SignalForwarder()
{
    for (size_t i = 0; i < std::size(kForwarded); ++i)
        ::sigaction(kForwarded[i], &g_previous[i], nullptr);
    g_forwardTo.store(0);
}

ForwardedSignalsBlocked::ForwardedSignalsBlocked()
{
    sigset_t set;
    sigemptyset(&set);
    for (int sig : kForwarded)
        sigaddset(&set, sig);
    ::pthread_sigmask(SIG_BLOCK, &set, &m_previous);
}

ForwardedSignalsBlocked::~ForwardedSignalsBlocked()
{
    ::pthread_sigmask(SIG_SETMASK, &m_previous, nullptr);
}

int SignalForwarder::lastSignal()
{
    return g_lastSignal.load();
}

void exitLike(const ExitStatus& status)
{
    std::fflush(stdout);
    std::fflush(stderr);
    if (!status.signaled)
        std::_Exit(status.code);
    const int sig = status.signal;
    if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP || sig == SIGPIPE) {
        struct sigaction sa { };
        sa.sa_handler = SIG_DFL;
        sigemptyset(&sa.sa_mask);
        ::sigaction(sig, &sa, nullptr);
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, sig);
        ::sigprocmask(SIG_UNBLOCK, &set, nullptr);
        ::raise(sig);
    }
    std::_Exit(128 + sig);
}

std::optional<std::vector<std::string>> splitCommandLine(std::string_view line, std::string* error)
{
    std::vector<std::string> words;
    std::string word;
    bool inWord = false;
    for (size_t i = 0; i < line.size(); ++i) {
        const char ch = line[i];
        if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') {
            if (inWord)
                words.push_back(std::exchange(word, {}));
            inWord = false;
        } else if (ch == '\'') {
            const size_t end = line.find('\'', i + 1);
            if (end == std::string_view::npos) {
                if (error)
                    *error = "a ' quote is not closed";
                return std::nullopt;
            }
            word.append(line.substr(i + 1, end - i - 1));
            i = end;
            inWord = true;
        } else if (ch == '"') {
            size_t j = i + 1;
            for (; j < line.size() && line[j] != '"'; ++j) {
                if (line[j] == '\\' && j + 1 < line.size()
                    && std::string_view("\"\\$`").find(line[j + 1]) != std::string_view::npos)
                    ++j;
                word.push_back(line[j]);
            }
            if (j >= line.size()) {
                if (error)
                    *error = "a \" quote is not closed";
                return std::nullopt;
            }
            i = j;
            inWord = true;
        } else if (ch == '\\') {
            if (i + 1 >= line.size()) {
                if (error)
                    *error = "the line ends with a backslash";
                return std::nullopt;
            }
            word.push_back(line[++i]);
            inWord = true;
        } else {
            word.push_back(ch);
            inWord = true;
        }
    }
    if (inWord)
        words.push_back(word);
    return words;
}

std::string joinCommandLine(const std::vector<std::string>& argv)
{
    std::string out;
    for (const auto& a : argv) {
        if (!out.empty())
            out += ' ';
        const bool plain = !a.empty()
            && a.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
                                   "_-+=./:,@%^")
                == std::string::npos;
        if (plain) {
            out += a;
            continue;
        }
        out += '\'';
        for (char ch : a) {
            if (ch == '\'')
                out += "'\\''";
            else
                out += ch;
        }
        out += '\'';
    }
    return out;
}

} // namespace dynascope::run
