"""The timing program of the probe tests: a small MLP in inference mode called 30 times with the
same shape. Its first call compiles; the next calls run the compiled code, so the steady-state
time per call is far below the first call's."""
import torch
from torch import nn


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(128, 256)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(256, 16)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))


torch.manual_seed(0)
model = torch.compile(MLP().eval())
x = torch.randn(32, 128)
with torch.inference_mode():
    for i in range(30):
        y = model(x)
print("mlp_steady: done", tuple(y.shape))
