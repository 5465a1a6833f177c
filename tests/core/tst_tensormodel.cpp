// The guard lab's tensor model (core/analysis/tensor_model.h): with c10, the dispatch key set
// Dynamo's TENSOR_MATCH records for a tensor, under the call's inference mode and autocast, and
// the strides c10 gives a layout. The expected key sets are the ones PyTorch 2.13 wrote into the
// committed guard_lab_probes recording for function neg ([3/0] an ordinary tensor, [3/1] the same
// under inference_mode, [3/2] an inference tensor under inference_mode, [3/3] under autocast cpu);
// Debian 12's libtorch 1.13 gives the same. Without a libtorch the model answers nothing and says
// why.
#include "core/analysis/tensor_model.h"

#include <QtTest>

using namespace dynascope;

class TestTensorModel : public QObject {
    Q_OBJECT
    static TensorModelQuery query(std::string device)
    {
        TensorModelQuery q;
        q.dtype = "float32";
        q.device = std::move(device);
        q.sizes = { 8, 4 };
        return q;
    }
    static void requireC10()
    {
        if (!*tensorModelLibrary())
            QSKIP("this build has no libtorch (DYNASCOPE_LIBTORCH=OFF or none found): the key "
                  "sets are c10's to compute; withoutLibtorch checks what it says instead");
    }

private Q_SLOTS:
    void keySets_data()
    {
        QTest::addColumn<QString>("device");
        QTest::addColumn<bool>("inferenceTensor");
        QTest::addColumn<bool>("inferenceMode");
        QTest::addColumn<QString>("autocast");
        QTest::addColumn<QString>("expected");
        QTest::newRow("ordinary cpu") << u"cpu"_qs << false << false << QString()
                                      << u"DispatchKeySet(CPU, BackendSelect, ADInplaceOrView, "
                                         "AutogradCPU)"_qs;
        QTest::newRow("under inference mode")
            << u"cpu"_qs << false << true << QString()
            << u"DispatchKeySet(CPU, BackendSelect, ADInplaceOrView)"_qs;
        QTest::newRow("inference tensor outside")
            << u"cpu"_qs << true << false << QString()
            << u"DispatchKeySet(CPU, BackendSelect, ADInplaceOrView)"_qs;
        QTest::newRow("inference tensor inside")
            << u"cpu"_qs << true << true << QString() << u"DispatchKeySet(CPU, BackendSelect)"_qs;
        QTest::newRow("autocast cpu") << u"cpu"_qs << false << false << u"cpu"_qs
                                      << u"DispatchKeySet(CPU, BackendSelect, ADInplaceOrView, "
                                         "AutogradCPU, AutocastCPU)"_qs;
        QTest::newRow("autocast cuda, cpu tensor")
            << u"cpu"_qs << false << false << u"cuda"_qs
            << u"DispatchKeySet(CPU, BackendSelect, ADInplaceOrView, AutogradCPU)"_qs;
        // The 2.11 H200 traces' check_tensor guards on cuda tensors print device=0 and this set.
        QTest::newRow("cuda, no GPU needed")
            << u"cuda:0"_qs << false << false << QString()
            << u"DispatchKeySet(CUDA, BackendSelect, ADInplaceOrView, AutogradCUDA)"_qs;
    }

    void keySets()
    {
        requireC10();
        QFETCH(QString, device);
        QFETCH(bool, inferenceTensor);
        QFETCH(bool, inferenceMode);
        QFETCH(QString, autocast);
        QFETCH(QString, expected);
        TensorModelQuery q = query(device.toStdString());
        q.inferenceTensor = inferenceTensor;
        q.inferenceMode = inferenceMode;
        if (!autocast.isEmpty())
            q.autocastDevice = autocast.toStdString();
        std::string error;
        const auto m = modelTensor(q, error);
        QVERIFY2(m, error.c_str());
        QCOMPARE(QString::fromStdString(m->keySet), expected);
        QCOMPARE(m->keys, dispatchKeyNames(expected.toStdString()));
        // The thread's dispatch state is restored: the next tensor sees none of it.
        const auto plain = modelTensor(query("cpu"), error);
        QVERIFY(plain);
        QCOMPARE(plain->keySet,
            std::string("DispatchKeySet(CPU, BackendSelect, ADInplaceOrView, AutogradCPU)"));
    }

    void layouts()
    {
        requireC10();
        std::string error;
        TensorModelQuery q = query("cpu");
        q.sizes = { 2, 3, 8, 8 };
        q.channelsLast = true; // x.to(memory_format=torch.channels_last)
        auto m = modelTensor(q, error);
        QVERIFY2(m, error.c_str());
        QCOMPARE(m->strides, (std::vector<int64_t> { 192, 1, 24, 3 }));
        QVERIFY(m->channelsLastContiguous && !m->contiguous);
        q = query("cpu");
        q.strides = std::vector<int64_t> { 1, 8 }; // t(4, 8).t()
        m = modelTensor(q, error);
        QVERIFY2(m, error.c_str());
        QCOMPARE(m->strides, (std::vector<int64_t> { 1, 8 }));
        QVERIFY(!m->contiguous);
        q = query("cpu");
        q.sizes = { 1, 2, 3, 4, 5 };
        q.channelsLast = true; // channels_last_3d
        m = modelTensor(q, error);
        QVERIFY2(m, error.c_str());
        QCOMPARE(m->strides, (std::vector<int64_t> { 120, 1, 40, 10, 2 }));
    }

    void refusals()
    {
        requireC10();
        std::string error;
        TensorModelQuery q = query("tpu:0");
        QVERIFY(!modelTensor(q, error));
        QVERIFY2(error.starts_with("c10: Expected one of cpu, cuda"), error.c_str());
        q = query("cpu");
        q.dtype = "float4";
        QVERIFY(!modelTensor(q, error));
        QCOMPARE(error, std::string("c10: no scalar type for dtype 'float4'"));
        q = query("cpu");
        q.strides = std::vector<int64_t> { 1 };
        QVERIFY(!modelTensor(q, error));
        QCOMPARE(error, std::string("c10: 1 strides for 2 sizes"));
    }

    void withoutLibtorch()
    {
        if (*tensorModelLibrary())
            QSKIP("this build models tensors with c10: keySets checks it");
        std::string error;
        QVERIFY(!modelTensor(query("cpu"), error));
        QVERIFY2(error.find("built without libtorch") != std::string::npos, error.c_str());
    }

    void keyNames()
    {
        QCOMPARE(dispatchKeyNames("DispatchKeySet(CPU, BackendSelect, ADInplaceOrView)"),
            (std::vector<std::string> { "CPU", "BackendSelect", "ADInplaceOrView" }));
        QCOMPARE(dispatchKeyNames("DispatchKeySet()"), std::vector<std::string> {});
        QCOMPARE(dispatchKeyNames("no key set"), std::vector<std::string> {});
    }
};

QTEST_GUILESS_MAIN(TestTensorModel)
#include "tst_tensormodel.moc"
