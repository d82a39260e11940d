"""The benchmark's Transformer in PyTorch (eager): the reference model of tc's
checks (test/Frontend/torch/reference_transformer.py, nn.Transformer with one
shared embedding, post-LN, no final stack norms) with dropout on, label
smoothing, torch.optim.Adam and the warmup / inverse-square-root schedule
through LambdaLR."""

import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "test", "Frontend", "torch"))
from reference_transformer import ReferenceTransformer  # noqa: E402


def make_train_step(config, fused=False, compiled=False):
    """The step; `fused`: Adam's fused multi-tensor kernel (PyTorch 2.4 and
    later, also on the CPU); `compiled`: the model under torch.compile
    (inductor), forward and backward."""
    d = config["d_model"]
    model = ReferenceTransformer(
        config["vocab_size"], d, config["heads"], config["d_ff"], config["encoder_layers"],
        config["decoder_layers"], pad_id=config.get("pad_id", 0),
        label_smoothing=config["label_smoothing"], dropout=config["dropout"])
    model.train()
    extra = {"fused": True} if fused else {}
    optimizer = torch.optim.Adam(model.parameters(), lr=1.0,
                                 betas=(config["adam_beta1"], config["adam_beta2"]),
                                 eps=config["adam_epsilon"], **extra)
    if compiled:
        model = torch.compile(model)
    warmup = config["warmup_steps"]
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: d ** -0.5 * min((s + 1) ** -0.5, (s + 1) * warmup ** -1.5))

    def train_step(src, tgt_in, tgt_out):
        optimizer.zero_grad(set_to_none=True)
        loss, tokens = model(src, tgt_in, tgt_out)
        (loss / tokens).backward()
        optimizer.step()
        schedule.step()
        return loss.item() / tokens

    return train_step
