"""A second run of a script with a warm cache: the runner runs this program twice with the same
TORCHINDUCTOR_CACHE_DIR. The first run misses the FX graph and AOTAutograd caches and fills them;
the recorded trace is the second run's, where both caches hit (DYNASCOPE_RUN says which run)."""
import os
import torch
from torch import nn
from scenario_facts import Facts

facts = Facts("warm_cache", __doc__)

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(32, 32), nn.SiLU(), nn.Linear(32, 8)).eval()


def predict(x):
    return model(x).log_softmax(dim=-1)


facts.function("predict", predict)
x = torch.randn(8, 32)
with torch.no_grad():
    torch.testing.assert_close(torch.compile(predict, backend="inductor")(x), predict(x))
facts.call("predict", x)
run = int(os.environ.get("DYNASCOPE_RUN", "1"))
facts.set("run", run)
facts.expect(compiles=1, recompiles=0, graph_breaks=0, failures=0,
             cache_hits=({"fx_graph": 1, "aotautograd": 1} if run > 1 else {}),
             cache_misses=({} if run > 1 else {"fx_graph": 1, "aotautograd": 1}))
facts.write()
