"""Two ranks of a gloo distributed run (torch.multiprocessing.spawn, MASTER_ADDR=127.0.0.1, on
the CPU) writing one TORCH_TRACE folder: each rank initialises the process group before it
compiles, so each writes dedicated_log_torch_trace_rank_<N>_*.log with "rank" on its records.
Each rank compiles the same step (an all_reduce between two compiled functions graph-breaks)."""
import json
import os
import sys
import tempfile

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from scenario_facts import Facts

WORLD = 2


def step(x):
    y = x * 2
    dist.all_reduce(y)
    return y + 1


def worker(rank, port, out_dir):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    dist.init_process_group("gloo", rank=rank, world_size=WORLD)
    facts = Facts("two_ranks_gloo", __doc__)
    facts.function("step", step)
    x = torch.full((4, 4), float(rank + 1))
    out = torch.compile(step, backend="aot_eager")(x)
    want = torch.full((4, 4), 2.0 * sum(range(1, WORLD + 1)) + 1)
    torch.testing.assert_close(out, want)
    facts.call("step", x)
    facts.set("rank", rank)
    dist.barrier()
    dist.destroy_process_group()
    facts.write(os.path.join(out_dir, f"rank{rank}.json"))


def free_port():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


if __name__ == "__main__":
    facts = Facts("two_ranks_gloo", __doc__)
    facts.function("step", step)
    with tempfile.TemporaryDirectory() as tmp:
        mp.spawn(worker, args=(free_port(), tmp), nprocs=WORLD, join=True)
        ranks = [json.load(open(os.path.join(tmp, f"rank{r}.json"))) for r in range(WORLD)]
    facts.set("ranks", [{"rank": r["rank"], "counters": r["counters"], "calls": r["calls"]}
                        for r in ranks])
    facts.expect(ranks=list(range(WORLD)), compiles=WORLD, compiles_per_rank=1, recompiles=0,
                 graph_breaks=0, failures=0)
    facts.write()
