"""What the scripts that fit a game's search evaluation share: a logistic regression and
how well its predictions name the results. Needs numpy."""

from __future__ import annotations

import numpy as np


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1e-3, *, intercept: bool = True) -> np.ndarray:
    """Logistic regression of the results ``y`` (1 won, 0.5 drawn, 0 lost) on the rows of
    ``x`` by Newton's method: the weights, and the intercept last if ``intercept``."""
    a = np.hstack([x, np.ones((len(x), 1))]) if intercept else x
    w = np.zeros(a.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-a @ w))
        grad = a.T @ (p - y) + l2 * w
        hess = (a * (p * (1 - p))[:, None]).T @ a + l2 * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w


def loss(p: np.ndarray, y: np.ndarray) -> float:
    """Mean cross-entropy of the predictions ``p`` for the results ``y``."""
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def agree(p: np.ndarray, y: np.ndarray) -> float:
    """The share of decided positions whose winner the prediction names."""
    decided = y != 0.5
    return float(np.mean((p[decided] > 0.5) == (y[decided] > 0.5)))
