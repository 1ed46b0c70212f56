"""Kernel recipes of the experiments (``configs/recipes.toml``), built in Rust.

A recipe scales the features, builds a list of kernels (linear, polynomial, Gaussian
with a width rule, SCMK's scaled Gaussians, cosine) and normalises each, exactly as
``mkc cluster --data FILE --recipe NAME`` and the experiment configs do. Give a recipe
by built-in name (:func:`recipes` lists them) or as a dict with the keys of a
``[recipes.NAME]`` table, e.g.::

    {"scale": "zscore",
     "kernels": [{"kind": "gaussian", "sigma_median_ratio": [0.5, 1.0, 2.0]},
                 {"kind": "linear"}],
     "normalize": ["center", "unit-diagonal"]}

:class:`KernelTransformer` does this inside a scikit-learn ``Pipeline``.
"""

import json
from collections import namedtuple

from sklearn.base import BaseEstimator, TransformerMixin

from . import _mkc
from ._inputs import as_float_array

__all__ = ["recipes", "build", "Kernels", "KernelTransformer"]

#: The result of :func:`build`: the kernels, their names, the scaled features.
Kernels = namedtuple("Kernels", ["kernels", "names", "features"])


def recipes():
    """The built-in recipes: ``{name: {"scale", "kernels", "normalize", "per_view"}}``."""
    return json.loads(_mkc.kernels.recipes_json())


def _recipe_args(recipe):
    if isinstance(recipe, str):
        return {"name": recipe}
    if isinstance(recipe, dict):
        return {"spec_json": json.dumps(recipe)}
    raise TypeError(
        f"recipe: expected a recipe name (str) or a dict, got {type(recipe).__name__}"
    )


def build(X, recipe):
    """The kernels of ``recipe`` on the (n, d) feature matrix ``X``.

    Returns :class:`Kernels` ``(kernels, names, features)``: a list of (n, n) arrays,
    a name per kernel (e.g. ``gauss(σ=1·median)``) and the features as the recipe
    scaled them.
    """
    X = as_float_array(X, "features")
    kernels, names, scaled = _mkc.kernels.build(X, **_recipe_args(recipe))
    return Kernels(kernels, names, scaled)


class KernelTransformer(TransformerMixin, BaseEstimator):
    """Features in, the recipe's list of kernels out: the first step of a
    ``Pipeline`` whose last step is an mkc estimator.

    The kernels are computed on the samples given to ``transform`` (clustering is
    transductive: data-dependent widths such as the median distance use those
    samples).

    Parameters
    ----------
    recipe : str or dict, default="gauss-median"
        A built-in recipe name (see :func:`recipes`) or a recipe dict.
    keep_features : bool, default=False
        Return ``{"kernels": [...], "features": scaled X}`` instead of the list, for
        methods that also read features.

    Attributes
    ----------
    n_features_in_ : int
        Number of feature columns seen by ``fit``.
    kernel_names_ : list of str
        Names of the kernels of the last ``fit_transform``/``transform``.
    """

    def __init__(self, recipe="gauss-median", *, keep_features=False):
        self.recipe = recipe
        self.keep_features = keep_features

    def fit(self, X, y=None):
        """Check the recipe and remember the number of features."""
        _mkc.kernels.check_recipe(**_recipe_args(self.recipe))
        X = as_float_array(X, "features")
        if X.ndim != 2:
            raise ValueError(f"features: expected a 2-D array (n, d), got shape {X.shape}")
        self.n_features_in_ = X.shape[1]
        return self

    def transform(self, X):
        """The kernels of the recipe on ``X`` (a list, or a dict with the features)."""
        out = build(X, self.recipe)
        self.kernel_names_ = out.names
        if self.keep_features:
            return {"kernels": out.kernels, "features": out.features}
        return out.kernels
