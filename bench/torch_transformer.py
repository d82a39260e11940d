"""The benchmark's Transformer in PyTorch (eager): the reference model of tc's
checks (test/Frontend/torch/reference_transformer.py, nn.Transformer with one
shared embedding, post-LN, no final stack norms) with dropout on, label
smoothing, torch.optim.Adam and the warmup / inverse-square-root schedule
through LambdaLR.

In bf16 (`make_train_step(..., bf16=True)`) it is what a PyTorch user trains
in mixed precision: the same parameters (f32 master weights, Adam in f32),
the forward and the loss under `torch.autocast(dtype=torch.bfloat16)`, and
attention through `F.scaled_dot_product_attention` (SdpaTransformer: the
fused flash / memory-efficient kernels where the device has them)."""

import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "test", "Frontend", "torch"))
from reference_transformer import ReferenceTransformer  # noqa: E402


class SdpaTransformer(ReferenceTransformer):
    """ReferenceTransformer's parameters and function, its layers written out
    with attention through F.scaled_dot_product_attention (nn.Transformer's
    layers reach it too, behind their own checks and reshapes; here the
    decoder's self-attention is `is_causal`, and the mask is boolean)."""

    def attend(self, attention, x, memory, key_mask, causal):
        d, heads = self.d_model, attention.num_heads
        if x is memory:
            q, k, v = F.linear(x, attention.in_proj_weight, attention.in_proj_bias).chunk(3, -1)
        else:
            w_q, w_kv = attention.in_proj_weight.split([d, 2 * d])
            b_q, b_kv = attention.in_proj_bias.split([d, 2 * d])
            q = F.linear(x, w_q, b_q)
            k, v = F.linear(memory, w_kv, b_kv).chunk(2, -1)

        def split(y):  # (batch, length, d) -> (batch, heads, length, d / heads)
            return y.unflatten(-1, (heads, d // heads)).transpose(1, 2)

        out = F.scaled_dot_product_attention(
            split(q), split(k), split(v), attn_mask=key_mask,
            dropout_p=attention.dropout if self.training else 0.0, is_causal=causal)
        return attention.out_proj(out.transpose(1, 2).flatten(2))

    @staticmethod
    def feed_forward(layer, x):
        return layer.linear2(layer.dropout(layer.activation(layer.linear1(x))))

    def encode(self, src):
        keep = (src != self.pad_id)[:, None, None, :]  # True: attend
        x = self.embed(src)
        for layer in self.transformer.encoder.layers:
            x = layer.norm1(x + layer.dropout1(self.attend(layer.self_attn, x, x, keep, False)))
            x = layer.norm2(x + layer.dropout2(self.feed_forward(layer, x)))
        return x

    def decode(self, memory, src, tgt):
        keep = (src != self.pad_id)[:, None, None, :]
        y = self.embed(tgt)
        for layer in self.transformer.decoder.layers:
            y = layer.norm1(y + layer.dropout1(self.attend(layer.self_attn, y, y, None, True)))
            y = layer.norm2(y + layer.dropout2(
                self.attend(layer.multihead_attn, y, memory, keep, False)))
            y = layer.norm3(y + layer.dropout3(self.feed_forward(layer, y)))
        # f32 logits (under autocast the product is bf16): the loss in f32, as tc's.
        return (y @ self.embedding.weight.T).float()


def make_model(config, sdpa=False):
    model_class = SdpaTransformer if sdpa else ReferenceTransformer
    return model_class(
        config["vocab_size"], config["d_model"], config["heads"], config["d_ff"],
        config["encoder_layers"], config["decoder_layers"], pad_id=config.get("pad_id", 0),
        label_smoothing=config["label_smoothing"], dropout=config["dropout"])


def make_train_step(config, fused=False, compiled=False, bf16=False, device="cpu",
                    backend="inductor", mode=None):
    """The step; `fused`: Adam's fused multi-tensor kernel (PyTorch 2.4 and
    later, also on the CPU); `compiled`: the model under torch.compile
    (`backend`, and `mode`: "max-autotune" adds CUDA graphs and GEMMs
    tuned by trial), forward and backward; `bf16`: SdpaTransformer, its forward
    and loss under autocast to bf16 on `device` ("cpu" or "cuda")."""
    d = config["d_model"]
    model = make_model(config, sdpa=bf16)
    model.train()
    extra = {"fused": True} if fused else {}
    optimizer = torch.optim.Adam(model.parameters(), lr=1.0,
                                 betas=(config["adam_beta1"], config["adam_beta2"]),
                                 eps=config["adam_epsilon"], **extra)
    if compiled:
        model = torch.compile(model, backend=backend, mode=mode)
    warmup = config["warmup_steps"]
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: d ** -0.5 * min((s + 1) ** -0.5, (s + 1) * warmup ** -1.5))

    def train_step(src, tgt_in, tgt_out):
        optimizer.zero_grad(set_to_none=True)
        with torch.autocast(device, dtype=torch.bfloat16, enabled=bf16):
            loss, tokens = model(src, tgt_in, tgt_out)
        (loss / tokens).backward()
        optimizer.step()
        schedule.step()
        return loss.item() / tokens

    return train_step
