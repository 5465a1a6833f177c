// BackgroundJob, the one helper for off-thread work in the GUI (the load, the payload check, the
// report view): a result comes back on the GUI thread with its job id, a superseded or cancelled
// job's result is dropped, and an exception in the work arrives as an error value instead of
// being rethrown in the slot that receives it (issue 17: a report job's result() did that).
#include "ui/backgroundjob.h"

#include <QSemaphore>
#include <QTest>

#include <stdexcept>

using namespace dynascope::ui;

class TestBackgroundJob : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void resultArrivesOnTheGuiThread()
    {
        BackgroundJob jobs;
        std::optional<JobOutcome<int>> got;
        const quint64 id = jobs.start<int>(
            [](std::stop_token) { return 42; }, [&](JobOutcome<int> o) { got = o; });
        QVERIFY(jobs.isRunning());
        QTRY_VERIFY(got.has_value());
        QCOMPARE(got->job, id);
        QCOMPARE(got->value.value_or(0), 42);
        QVERIFY(got->error.isEmpty());
        QVERIFY(!jobs.isRunning());
    }

    void anExceptionIsAnErrorValue()
    {
        BackgroundJob jobs;
        std::optional<JobOutcome<int>> got;
        jobs.start<int>([](std::stop_token) -> int { throw std::runtime_error("report broke"); },
            [&](JobOutcome<int> o) { got = o; });
        QTRY_VERIFY(got.has_value());
        QVERIFY(!got->value);
        QCOMPARE(got->error, QStringLiteral("report broke"));
    }

    void aSupersededResultIsDropped()
    {
        BackgroundJob jobs;
        QSemaphore release;
        QList<int> seen;
        bool firstStopped = false;
        jobs.start<int>(
            [&](std::stop_token token) {
                release.acquire(); // held until the second job has started
                firstStopped = token.stop_requested();
                return 1;
            },
            [&](JobOutcome<int> o) { seen << *o.value; });
        jobs.start<int>(
            [](std::stop_token) { return 2; }, [&](JobOutcome<int> o) { seen << *o.value; });
        release.release();
        QTRY_COMPARE(seen, QList<int> { 2 });
        jobs.waitForWorker();
        QTest::qWait(50); // the first job's watcher has fired by now, and was ignored
        QCOMPARE(seen, QList<int> { 2 });
        QVERIFY(firstStopped); // it was asked to stop
    }

    void aCancelledResultIsDropped()
    {
        BackgroundJob jobs;
        QSemaphore release;
        bool called = false;
        jobs.start<int>(
            [&](std::stop_token) {
                release.acquire();
                return 1;
            },
            [&](JobOutcome<int>) { called = true; });
        jobs.cancel();
        QVERIFY(!jobs.isRunning());
        release.release();
        QTest::qWait(100);
        QVERIFY(!called);
    }
};

QTEST_MAIN(TestBackgroundJob)
#include "tst_backgroundjob.moc"
