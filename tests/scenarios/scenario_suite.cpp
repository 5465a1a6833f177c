#include "scenario_suite.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QTest>

using namespace dynascope;

namespace scenarios {

QString suiteDir()
{
    const QByteArray env = qgetenv("DYNASCOPE_SCENARIOS_DIR");
    return env.isEmpty() ? QStringLiteral(DYNASCOPE_SCENARIOS_RECORDED) : QString::fromUtf8(env);
}

bool isCommittedRecording()
{
    return QDir(suiteDir()).canonicalPath()
        == QDir(QStringLiteral(DYNASCOPE_SCENARIOS_RECORDED)).canonicalPath();
}

bool optionalSuiteAbsent()
{
    return qgetenv("DYNASCOPE_SCENARIOS_OPTIONAL") == "1"
        && !QFileInfo::exists(suiteDir() + u"/MANIFEST.json"_qs);
}

QJsonObject readJson(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

QStringList scenarioNames()
{
    QStringList out;
    const QDir dir(suiteDir());
    for (const QString& n : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
        if (QFileInfo::exists(dir.filePath(n + u"/facts.json"_qs)))
            out << n;
    return out;
}

void addScenarioRows()
{
    QTest::addColumn<QString>("name");
    for (const QString& n : scenarioNames())
        QTest::newRow(qPrintable(n)) << n;
}

std::string str(const QJsonValue& v)
{
    return v.toString().toStdString();
}

Scenario loadScenario(const QString& name)
{
    Scenario s;
    s.name = name;
    s.dir = QDir(suiteDir()).filePath(name);
    s.facts = readJson(s.dir + u"/facts.json"_qs);
    auto r = load({ s.dir.toStdString() });
    s.trace = r.trace;
    return s;
}

std::vector<uint32_t> Scenario::compilesOf(const QString& label, bool unstarted) const
{
    std::vector<uint32_t> out;
    const QJsonObject fn = function(label);
    if (fn.isEmpty() || !trace)
        return out;
    for (const Compile& c : trace->compiles)
        if (c.coName == str(fn[u"name"_qs]) && c.coFilename == str(fn[u"file"_qs])
            && c.coFirstLineno == fn[u"firstlineno"_qs].toInteger()
            && (unstarted || c.startRecord != kNone))
            out.push_back(c.index);
    return out;
}

QJsonObject Scenario::counters() const
{
    const QJsonArray ranks = facts[u"ranks"_qs].toArray();
    if (ranks.isEmpty())
        return facts[u"counters"_qs].toObject();
    // Sum the ranks' counters, group by group, key by key.
    QJsonObject sum;
    for (const QJsonValue& r : ranks) {
        const QJsonObject c = r.toObject()[u"counters"_qs].toObject();
        for (auto g = c.begin(); g != c.end(); ++g) {
            QJsonObject group = sum[g.key()].toObject();
            const QJsonObject add = g.value().toObject();
            for (auto k = add.begin(); k != add.end(); ++k)
                group[k.key()] = group[k.key()].toInteger() + k.value().toInteger();
            sum[g.key()] = group;
        }
    }
    return sum;
}

} // namespace scenarios
