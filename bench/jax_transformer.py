"""The benchmark's Transformer in JAX (XLA's jit on the CPU): the same model
as tc's and bench/torch_transformer.py's — post-LN encoder-decoder, one
embedding shared by source, target and output, scaled by sqrt(d_model),
sinusoidal positions, dropout on embeddings, sublayer outputs, attention
weights and inside the feed-forward network, label-smoothed cross-entropy
ignoring padding, Adam with the warmup / inverse-square-root schedule — as
one jit-compiled training step. Plain jax.numpy (no Flax or Optax), so that
what XLA compiles is visible here.

With bf16=True every matrix product (the projections, attention's scores
and weighted sums, the feed-forward network, the output layer) takes bf16
operands and gives an f32 result (`preferred_element_type`): tc's bf16
design; parameters, gradients, Adam, LayerNorm, softmax and the loss stay
f32."""

import math

import jax
import jax.numpy as jnp


def init(key, config):
    d, dff, V = config["d_model"], config["d_ff"], config["vocab_size"]
    keys = iter(jax.random.split(key, 1000))

    def dense(n_in, n_out):
        bound = math.sqrt(6.0 / (n_in + n_out))
        return {"w": jax.random.uniform(next(keys), (n_in, n_out), jnp.float32, -bound, bound),
                "b": jnp.zeros((n_out,), jnp.float32)}

    def norm():
        return {"g": jnp.ones((d,), jnp.float32), "b": jnp.zeros((d,), jnp.float32)}

    def attention():
        return {"q": dense(d, d), "k": dense(d, d), "v": dense(d, d), "o": dense(d, d)}

    def ffn():
        return {"fc1": dense(d, dff), "fc2": dense(dff, d)}

    return {
        "embedding": jax.random.normal(next(keys), (V, d), jnp.float32) * d ** -0.5,
        "encoder": [{"self": attention(), "norm1": norm(), "ffn": ffn(), "norm2": norm()}
                    for _ in range(config["encoder_layers"])],
        "decoder": [{"self": attention(), "norm1": norm(), "cross": attention(),
                     "norm2": norm(), "ffn": ffn(), "norm3": norm()}
                    for _ in range(config["decoder_layers"])],
    }


def positions(length, d):
    pos = jnp.arange(length, dtype=jnp.float32)[:, None]
    col = jnp.arange(d)
    angle = pos / jnp.power(10000.0, (col - col % 2).astype(jnp.float32) / d)
    return jnp.where(col % 2 == 0, jnp.sin(angle), jnp.cos(angle))


def make_train_step(config, bf16=False):
    d, h = config["d_model"], config["heads"]
    p_drop = config["dropout"]
    eps_ls, pad = config["label_smoothing"], config.get("pad_id", 0)
    beta1, beta2, eps = config["adam_beta1"], config["adam_beta2"], config["adam_epsilon"]
    warmup = config["warmup_steps"]

    def dropout(key, x):
        keep = jax.random.bernoulli(key, 1.0 - p_drop, x.shape)
        return jnp.where(keep, x / (1.0 - p_drop), 0.0)

    def matmul(a, b):
        if not bf16:
            return a @ b
        return jnp.matmul(a.astype(jnp.bfloat16), b.astype(jnp.bfloat16),
                          preferred_element_type=jnp.float32)

    def layer_norm(p, x):
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return (x - mean) * jax.lax.rsqrt(var + 1e-5) * p["g"] + p["b"]

    def linear(p, x):
        return matmul(x, p["w"]) + p["b"]

    def attention(p, key, x, memory, mask):
        B, Tq, _ = x.shape
        Tk = memory.shape[1]

        def heads(y, T):
            return y.reshape(B, T, h, d // h).transpose(0, 2, 1, 3)

        q = heads(linear(p["q"], x), Tq)
        k = heads(linear(p["k"], memory), Tk)
        v = heads(linear(p["v"], memory), Tk)
        scores = matmul(q, k.transpose(0, 1, 3, 2)) / math.sqrt(d // h)
        weights = jax.nn.softmax(jnp.where(mask, scores, -1e9), axis=-1)
        out = matmul(dropout(key, weights), v)
        return linear(p["o"], out.transpose(0, 2, 1, 3).reshape(B, Tq, d))

    def ffn(p, key, x):
        return linear(p["fc2"], dropout(key, jax.nn.relu(linear(p["fc1"], x))))

    def embed(params, key, ids):
        x = params["embedding"][ids] * math.sqrt(d) + positions(ids.shape[1], d)
        return dropout(key, x)

    def loss_fn(params, key, src, tgt_in, tgt_out):
        keys = iter(jax.random.split(key, 64))
        src_mask = (src != pad)[:, None, None, :]
        x = embed(params, next(keys), src)
        for layer in params["encoder"]:
            a = attention(layer["self"], next(keys), x, x, src_mask)
            x = layer_norm(layer["norm1"], x + dropout(next(keys), a))
            f = ffn(layer["ffn"], next(keys), x)
            x = layer_norm(layer["norm2"], x + dropout(next(keys), f))
        T = tgt_in.shape[1]
        causal = jnp.tril(jnp.ones((T, T), bool))[None, None]
        y = embed(params, next(keys), tgt_in)
        for layer in params["decoder"]:
            a = attention(layer["self"], next(keys), y, y, causal)
            y = layer_norm(layer["norm1"], y + dropout(next(keys), a))
            c = attention(layer["cross"], next(keys), y, x, src_mask)
            y = layer_norm(layer["norm2"], y + dropout(next(keys), c))
            f = ffn(layer["ffn"], next(keys), y)
            y = layer_norm(layer["norm3"], y + dropout(next(keys), f))
        logits = matmul(y, params["embedding"].T)
        logp = jax.nn.log_softmax(logits, axis=-1)
        nll = -jnp.take_along_axis(logp, tgt_out[..., None], axis=-1)[..., 0]
        smooth = -logp.mean(-1)
        per_token = (1.0 - eps_ls) * nll + eps_ls * smooth
        valid = tgt_out != pad
        return jnp.sum(jnp.where(valid, per_token, 0.0)), valid.sum()

    def train_step(params, m, v, step, key, src, tgt_in, tgt_out):
        (loss, tokens), grads = jax.value_and_grad(loss_fn, has_aux=True)(
            params, key, src, tgt_in, tgt_out)
        step = step + 1
        t = step.astype(jnp.float32)
        lr = d ** -0.5 * jnp.minimum(t ** -0.5, t * warmup ** -1.5)
        m = jax.tree_util.tree_map(lambda m, g: beta1 * m + (1 - beta1) * g, m, grads)
        v = jax.tree_util.tree_map(lambda v, g: beta2 * v + (1 - beta2) * g * g, v, grads)
        c1, c2 = 1 - beta1 ** t, 1 - beta2 ** t
        params = jax.tree_util.tree_map(
            lambda p, m, v: p - lr * (m / c1) / (jnp.sqrt(v / c2) + eps), params, m, v)
        return params, m, v, step, loss / tokens

    return jax.jit(train_step, donate_argnums=(0, 1, 2))
