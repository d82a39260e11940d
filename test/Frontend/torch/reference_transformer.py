"""The Transformer of Vaswani et al. in PyTorch, built from nn.Transformer, with
one shared embedding tied to the output projection: the independent reference
for tc's frontend. Also maps tc's parameter names to this model's tensors."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class ReferenceTransformer(nn.Module):
    def __init__(self, vocab, d_model, heads, d_ff, encoder_layers, decoder_layers,
                 pad_id=0, label_smoothing=0.0, layer_norm_eps=1e-5, dropout=0.0):
        super().__init__()
        self.d_model, self.pad_id, self.label_smoothing = d_model, pad_id, label_smoothing
        # dropout (the benchmark's; the checks keep it off) on the sublayer
        # outputs, attention weights, inside the feed-forward network and on
        # the embeddings.
        enc = nn.TransformerEncoderLayer(d_model, heads, d_ff, dropout=dropout,
                                         batch_first=True, layer_norm_eps=layer_norm_eps)
        dec = nn.TransformerDecoderLayer(d_model, heads, d_ff, dropout=dropout,
                                         batch_first=True, layer_norm_eps=layer_norm_eps)
        # The paper's post-LN model has no LayerNorm after the stacks, which
        # nn.Transformer adds by default: pass stacks without one.
        self.transformer = nn.Transformer(
            d_model, heads, encoder_layers, decoder_layers, d_ff, dropout=dropout,
            batch_first=True,
            custom_encoder=nn.TransformerEncoder(enc, encoder_layers, norm=None,
                                                 enable_nested_tensor=False),
            custom_decoder=nn.TransformerDecoder(dec, decoder_layers, norm=None))
        self.embedding = nn.Embedding(vocab, d_model)  # source, target and output
        self.embedding_dropout = nn.Dropout(dropout)

    def positions(self, length):
        pos = torch.arange(length, dtype=torch.float64)[:, None]
        col = torch.arange(self.d_model)
        angle = pos / torch.pow(10000.0, (col - col % 2).double() / self.d_model)
        pe = torch.where(col % 2 == 0, torch.sin(angle), torch.cos(angle))
        return pe.to(self.embedding.weight.device, self.embedding.weight.dtype)

    def embed(self, ids):
        return self.embedding_dropout(
            self.embedding(ids) * math.sqrt(self.d_model) + self.positions(ids.shape[1]))

    def encode(self, src):
        return self.transformer.encoder(self.embed(src), src_key_padding_mask=src == self.pad_id)

    def decode(self, memory, src, tgt):
        t = tgt.shape[1]
        causal = torch.triu(torch.full((t, t), float("-inf"), dtype=memory.dtype), 1)
        y = self.transformer.decoder(self.embed(tgt), memory, tgt_mask=causal,
                                     memory_key_padding_mask=src == self.pad_id)
        return y @ self.embedding.weight.T

    def forward(self, src, tgt_in, tgt_out):
        logits = self.decode(self.encode(src), src, tgt_in)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), tgt_out.reshape(-1),
                               ignore_index=self.pad_id, label_smoothing=self.label_smoothing,
                               reduction="sum")
        return loss, int((tgt_out != self.pad_id).sum())

    def tc_parameters(self):
        """tc parameter name -> the tensor of this model that holds it (a view
        for Q, K and V, which PyTorch keeps in one in_proj_weight)."""
        return {name: leaf if part is None else leaf[part]
                for name, (leaf, part) in self._tc_layout().items()}

    def tc_gradient(self, name):
        """The gradient (after backward) of tc parameter `name`."""
        leaf, part = self._tc_layout()[name]
        return leaf.grad if part is None else leaf.grad[part]

    def _tc_layout(self):
        """tc parameter name -> (parameter of this model, slice of it or None)."""
        d = self.d_model
        layout = {"embedding.weight": (self.embedding.weight, None)}

        def attention(prefix, mha):
            for i, part in enumerate("qkv"):
                rows = slice(i * d, (i + 1) * d)
                layout[f"{prefix}.{part}.weight"] = (mha.in_proj_weight, rows)
                layout[f"{prefix}.{part}.bias"] = (mha.in_proj_bias, rows)
            layout[f"{prefix}.out.weight"] = (mha.out_proj.weight, None)
            layout[f"{prefix}.out.bias"] = (mha.out_proj.bias, None)

        def affine(prefix, module):
            layout[f"{prefix}.weight"] = (module.weight, None)
            layout[f"{prefix}.bias"] = (module.bias, None)

        for i, layer in enumerate(self.transformer.encoder.layers):
            p = f"encoder.layers.{i}"
            attention(f"{p}.self_attn", layer.self_attn)
            affine(f"{p}.self_attn_norm", layer.norm1)
            affine(f"{p}.ffn.fc1", layer.linear1)
            affine(f"{p}.ffn.fc2", layer.linear2)
            affine(f"{p}.ffn_norm", layer.norm2)
        for i, layer in enumerate(self.transformer.decoder.layers):
            p = f"decoder.layers.{i}"
            attention(f"{p}.self_attn", layer.self_attn)
            affine(f"{p}.self_attn_norm", layer.norm1)
            attention(f"{p}.cross_attn", layer.multihead_attn)
            affine(f"{p}.cross_attn_norm", layer.norm2)
            affine(f"{p}.ffn.fc1", layer.linear1)
            affine(f"{p}.ffn.fc2", layer.linear2)
            affine(f"{p}.ffn_norm", layer.norm3)
        return layout
