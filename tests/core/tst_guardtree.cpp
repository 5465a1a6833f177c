// Guard trees (dynamo_cpp_guards_str and the dynamo_guards JSON list) and the textual link from a
// recompile reason to the guard that failed.
#include "core/load/finish/recompile_linker.h"
#include "core/model/guard_tree.h"

#include <QtTest>

using namespace dynascope;

namespace {
const char* kTree = R"(
TREE_GUARD_MANAGER:
+- RootGuardManager
| +- DEFAULT_DEVICE: utils_device.CURRENT_DEVICE == None                           # _dynamo/output_graph.py:631 in init_ambient_guards
| +- GLOBAL_STATE: ___check_global_state()
| +- GuardManager: source=L['x'], accessed_by=FrameLocalsGuardAccessor(key='x', framelocals_idx=0)
| | +- TENSOR_MATCH: check_tensor(L['x'], Tensor, DispatchKeySet(CPU, BackendSelect, ADInplaceOrView, AutogradCPU), torch.float32, device=None, requires_grad=False, size=[32, 128], stride=[128, 1])
| | +- NO_HASATTR: hasattr(L['x'], '_dynamo_dynamic_indices') == False
| +- GuardManager: source=L['y'], accessed_by=FrameLocalsGuardAccessor(key='y', framelocals_idx=1)
| | +- TENSOR_MATCH: check_tensor(L['y'], Tensor, DispatchKeySet(CPU, BackendSelect, ADInplaceOrView, AutogradCPU), torch.float32, device=None, requires_grad=False, size=[128], stride=[1])
| +- GuardManager: source=L['n'], accessed_by=FrameLocalsGuardAccessor(key='n', framelocals_idx=2)
| | +- EQUALS_MATCH: L['n'] == 3
| +- GuardManager: source=G, accessed_by=GlobalsGuardAccessor
| | +- GuardManager: source=G['torch'], accessed_by=DictGetItemGuardAccessor(torch)
| | | +- ID_MATCH: ___check_obj_id(G['torch'], 140666006061280)

Guard latency = 15.88 us)";
}

class TestGuardTree : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parsesCppTree()
    {
        GuardTree t = GuardTree::parseCpp(kTree);
        QCOMPARE(t.latency, std::string("15.88 us"));
        QCOMPARE(t.nodes.front().kind, std::string("RootGuardManager"));
        QCOMPARE(t.nodes.front().depth, 0);
        QCOMPARE(t.guardCount(), size_t(7));
        const GuardNode& dd = t.nodes[1];
        QCOMPARE(dd.kind, std::string("DEFAULT_DEVICE"));
        QCOMPARE(dd.expr, std::string("utils_device.CURRENT_DEVICE == None"));
        QCOMPARE(dd.where, std::string("_dynamo/output_graph.py:631 in init_ambient_guards"));
        const GuardNode& tm = t.nodes[4];
        QCOMPARE(tm.kind, std::string("TENSOR_MATCH"));
        QCOMPARE(tm.depth, 2);
        QCOMPARE(t.nodes[size_t(tm.parent)].source, std::string("L['x']"));
        QCOMPARE(t.sourceOf(4), std::string("L['x']"));
        auto idMatch = std::find_if(t.nodes.begin(), t.nodes.end(),
            [](const GuardNode& n) { return n.kind == "ID_MATCH"; });
        QVERIFY(idMatch != t.nodes.end());
        QCOMPARE(idMatch->depth, 3);
        QCOMPARE(t.sourceOf(int(idMatch - t.nodes.begin())), std::string("G['torch']"));
    }

    void linksReasonToGuard_data()
    {
        QTest::addColumn<QString>("reason");
        QTest::addColumn<QString>("earlier");
        QTest::addColumn<QString>("mismatch");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<QString>("actual");
        QTest::addColumn<QString>("guardKind");
        QTest::addColumn<QString>("guardSource");
        QTest::newRow("size of x")
            << u"0/0: tensor 'x' size mismatch at index 0. expected 32, actual 64"_qs << u"0/0"_qs
            << u"size"_qs << u"32"_qs << u"64"_qs << u"TENSOR_MATCH"_qs << u"L['x']"_qs;
        QTest::newRow("newer L[] form")
            << u"0/3: tensor 'L['y']' stride mismatch at index 0. expected 1, actual 2"_qs
            << u"0/3"_qs << u"stride"_qs << u"1"_qs << u"2"_qs << u"TENSOR_MATCH"_qs
            << u"L['y']"_qs;
        QTest::newRow("dtype") << u"1/0: tensor 'x' dtype mismatch. expected Float, actual Half"_qs
                               << u"1/0"_qs << u"dtype"_qs << u"Float"_qs << u"Half"_qs
                               << u"TENSOR_MATCH"_qs << u"L['x']"_qs;
        QTest::newRow("value guard") << u"0/1: L['n'] == 3"_qs << u"0/1"_qs << u"value"_qs
                                     << u"3"_qs << QString() << u"EQUALS_MATCH"_qs << u"L['n']"_qs;
        QTest::newRow("id guard") << u"!0/2/0: ___check_obj_id(G['torch'], 140666006061280)"_qs
                                  << u"!0/2/0"_qs << u"id"_qs << QString() << QString()
                                  << u"ID_MATCH"_qs << u"G['torch']"_qs;
        QTest::newRow("unknown tensor")
            << u"0/0: tensor 'z' size mismatch at index 1. expected 2, actual 3"_qs << u"0/0"_qs
            << u"size"_qs << u"2"_qs << u"3"_qs << QString() << QString();
    }
    void linksReasonToGuard()
    {
        QFETCH(QString, reason);
        GuardTree t = GuardTree::parseCpp(kTree);
        StringPool pool;
        RecompileReason r = parseRecompileReason(reason.toStdString(), pool);
        QTEST(QString::fromStdString(r.earlierKey), "earlier");
        QTEST(QString::fromStdString(r.mismatch), "mismatch");
        QTEST(QString::fromStdString(r.expected), "expected");
        QTEST(QString::fromStdString(r.actual), "actual");
        int node = matchGuard(r, t);
        QFETCH(QString, guardKind);
        if (guardKind.isEmpty()) {
            QCOMPARE(node, -1);
            return;
        }
        QVERIFY(node >= 0);
        QCOMPARE(QString::fromStdString(t.nodes[size_t(node)].kind), guardKind);
        QTEST(QString::fromStdString(t.sourceOf(node)), "guardSource");
    }

    void parsesJsonGuardList()
    {
        GuardTree t = GuardTree::parseJsonList(
            R"J([{"code": "hasattr(L['x'], '_dynamo_dynamic_indices') == False", "stack": null, "user_stack": null},
                {"code": null, "stack": null, "user_stack": null},
                {"code": "___check_obj_id(L['m'], 123)", "stack": null, "user_stack": "File x.py line 3"}])J");
        QVERIFY(!t.fromCpp);
        QCOMPARE(t.guardCount(), size_t(2));
        QCOMPARE(t.nodes[2].expr, std::string("___check_obj_id(L['m'], 123)"));
        QCOMPARE(t.nodes[2].userStack, std::string("File x.py line 3"));
    }

    void malformedInputsDoNotCrash()
    {
        QCOMPARE(GuardTree::parseCpp("").nodes.size(), size_t(0));
        GuardTree odd
            = GuardTree::parseCpp("| | | +- DEEP: x\n+- TOP: y\nnot a node line\n| +- CHILD: z");
        QCOMPARE(odd.nodes.size(), size_t(3));
        QCOMPARE(odd.nodes[0].parent, -1);
        QCOMPARE(odd.nodes[2].parent, 1);
        QVERIFY(odd.nodes[1].expr.find("not a node line") != std::string::npos);
        QCOMPARE(GuardTree::parseJsonList("{not json").nodes.size(), size_t(0));
    }
};

QTEST_GUILESS_MAIN(TestGuardTree)
#include "tst_guardtree.moc"
