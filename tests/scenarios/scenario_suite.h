// The recorded scenario suite as the tests see it: a folder of scenario folders (tests/scenarios/
// README.md), each with the trace PyTorch wrote and the facts its program wrote. Shared by
// tst_scenarios (Dynascope against the facts) and tst_tlparse (Dynascope against tlparse).
#pragma once

#include "core/load/loader.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <memory>

namespace scenarios {

// DYNASCOPE_SCENARIOS_DIR when set (a fresh recording: scripts/run-pytorch-suite.sh), else the
// committed recording this build was configured with.
QString suiteDir();
bool isCommittedRecording();
// A recording that may be absent (DYNASCOPE_SCENARIOS_OPTIONAL=1: one in ../shared) and is: the
// tests skip, saying so.
bool optionalSuiteAbsent();
QJsonObject readJson(const QString& path);
// Scenario folder names, sorted (folders holding a facts.json).
QStringList scenarioNames();
// The data of a test run once per scenario: a QString column "name", a row per scenario.
void addScenarioRows();

struct Scenario {
    QString name;
    QString dir;
    QJsonObject facts;
    std::shared_ptr<const dynascope::Trace> trace;

    QJsonObject expect() const { return facts[u"expect"_qs].toObject(); }
    // The facts' function (label -> name, file, firstlineno).
    QJsonObject function(const QString& label) const
    {
        return facts[u"functions"_qs].toObject()[label].toObject();
    }
    QJsonObject line(const QString& label) const
    {
        return facts[u"lines"_qs].toObject()[label].toObject();
    }
    // Compiles (trace indices, file order) of the code object the facts name under `label`:
    // those with a dynamo_start, or all (the recompile-limit compile has none).
    std::vector<uint32_t> compilesOf(const QString& label, bool unstarted = false) const;
    // Counters of the program (per rank summed for a distributed scenario).
    QJsonObject counters() const;
};

Scenario loadScenario(const QString& name);

std::string str(const QJsonValue& v);

} // namespace scenarios
