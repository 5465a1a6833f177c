// The one place in Dynascope that starts a process (docs/robustness.md, "What Dynascope runs and
// writes"; tests/robustness/no_shell.cmake allows process calls here and nowhere else).
//
// It runs only a command line the user typed (`dynascope-cli record -- CMD ARGS...`, `probe`,
// `dynascope --record`, File > Record a Run…): argv is passed to posix_spawnp as it is, never
// through a shell, and nothing read from a trace ever becomes an argument, an environment value,
// a working folder or an output path here.
#pragma once

#include <csignal>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dynascope::run {

// How a child ended.
struct ExitStatus {
    bool signaled = false; // killed by a signal
    int code = 0; // exit status when !signaled
    int signal = 0; // the signal when signaled
    bool coreDumped = false;

    // The shell's convention: the exit status, or 128 + N for a child killed by signal N.
    int shellStatus() const { return signaled ? 128 + signal : code; }
    // "exited with status 7", "was killed by SIGINT (Ctrl+C)", "was killed by SIGSEGV (core
    // dumped)".
    std::string describe() const;
};

// "SIGINT"; "signal 42" for one without a name.
std::string signalName(int signal);

struct SpawnOptions {
    std::vector<std::string> argv; // argv[0] is looked up in PATH when it has no '/'
    std::vector<std::pair<std::string, std::string>> setEnvironment; // added or replaced
    std::vector<std::string> unsetEnvironment;
    std::string workingDirectory; // empty: this process's
    // Empty: the child shares this process's stdin, stdout and stderr. Else stdout and stderr
    // are appended to this file and stdin reads /dev/null (a run started from the GUI).
    std::string outputFile;
};

class ChildProcess {
public:
    ChildProcess() = default;
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;
    ChildProcess(ChildProcess&& other) noexcept;
    ChildProcess& operator=(ChildProcess&& other) noexcept;
    ~ChildProcess() = default; // a running child is left running (and reaped by whoever waits)

    // Starts the command. On failure the result is not valid() and error says why ("python:
    // command not found"); notFound tells that case apart (the shell's exit status 127).
    static ChildProcess spawn(
        const SpawnOptions& options, std::string* error, bool* notFound = nullptr);

    bool valid() const { return m_pid > 0; }
    int pid() const { return m_pid; }
    bool finished() const { return m_status.has_value(); }
    const std::optional<ExitStatus>& status() const { return m_status; }

    // Non-blocking: the exit status once the child has ended (it is reaped then).
    std::optional<ExitStatus> poll();
    // Blocks until the child ends; signals that interrupt the wait do not end it.
    ExitStatus wait();
    // Sends a signal; false when the child has already been reaped or kill() failed.
    bool sendSignal(int signal);

private:
    int m_pid = 0;
    std::optional<ExitStatus> m_status;
};

// While it lives, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1 and SIGUSR2 sent to this process
// are passed on to the child instead of ending this process (which waits for the child and
// reports). A signal the kernel sent to the terminal's whole foreground process group (Ctrl+C,
// Ctrl+\, a hang-up) reached the child directly, since it shares that group, and is not sent a
// second time; a signal the child sent is not sent back. One forwarder at a time.
class SignalForwarder {
public:
    explicit SignalForwarder(int childPid);
    ~SignalForwarder(); // restores the previous handlers
    SignalForwarder(const SignalForwarder&) = delete;
    SignalForwarder& operator=(const SignalForwarder&) = delete;

    // The last signal this process received while forwarding (0: none).
    static int lastSignal();
};

// Holds the signals a SignalForwarder forwards blocked while it lives. Made before spawning the
// child and dropped once the forwarder is in place, so a signal sent in between (the child may
// already be running and telling its parent "ready") waits and is then forwarded, instead of
// ending this process by its default action. The child starts with an empty mask (spawn).
class ForwardedSignalsBlocked {
public:
    ForwardedSignalsBlocked();
    ~ForwardedSignalsBlocked(); // the previous mask again: pending signals are delivered now
    ForwardedSignalsBlocked(const ForwardedSignalsBlocked&) = delete;
    ForwardedSignalsBlocked& operator=(const ForwardedSignalsBlocked&) = delete;

private:
    sigset_t m_previous;
};

// Ends this process the way the child ended, after the caller has reported: the child's exit
// status; for a child killed by SIGINT, SIGTERM, SIGHUP or SIGPIPE this process ends itself by
// the same signal (so a shell sees what the program did: $? is 128 + N and a loop stops after
// Ctrl+C); for any other signal (SIGKILL, SIGSEGV, SIGABRT, ...) it exits with 128 + N, without
// dumping core itself.
[[noreturn]] void exitLike(const ExitStatus& status);

// Splits a command line typed into the GUI into argv the way a POSIX shell splits words, without
// running or expanding anything: blanks separate words, '...' keeps everything literally,
// "..." keeps everything but \" \\ \$ \`, a backslash outside quotes escapes the next character.
// No variables, globs, pipes or redirections (they are ordinary characters). nullopt with
// *error set on an unterminated quote or a trailing backslash.
std::optional<std::vector<std::string>> splitCommandLine(std::string_view line, std::string* error);
// The reverse, for display and for the run's record: words quoted only where needed.
std::string joinCommandLine(const std::vector<std::string>& argv);

} // namespace dynascope::run
