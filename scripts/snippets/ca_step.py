from math import exp, sqrt


def softmax(xs):
    top = max(xs)
    es = [exp(x - top) for x in xs]
    total = sum(es)
    return [e / total for e in es]


query = (1, 1)
keys = [(1, 0), (0, 1), (2, 2), (-1, 1)]

scores = [sum(a * b for a, b in zip(query, k)) for k in keys]
scaled = [s / sqrt(len(query)) for s in scores]
weights = softmax(scaled)

for name, row in (("scores", scores), ("scaled", scaled), ("weights", weights)):
    print(f"{name:<8}" + " ".join(f"{x:5.2f}" for x in row))
