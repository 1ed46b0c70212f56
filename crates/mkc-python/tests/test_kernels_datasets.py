"""mkc.kernels (the recipes of the experiments) and mkc.datasets (the registry),
against the `mkc kernels` / `mkc cluster` command line."""

import numpy as np
import pytest

import mkc
from conftest import REPO, read_labels

DATA = REPO / "data"


def test_recipes_are_the_built_in_ones():
    rs = mkc.kernels.recipes()
    text = (REPO / "configs" / "recipes.toml").read_text()
    for name in rs:
        assert f"[recipes.{name}]" in text
    g = rs["gauss10-range"]
    assert g["normalize"] == ["multiplicative"] and g["kernels"][0]["kind"] == "gaussian"
    assert len(g["kernels"][0]["sigma_range_fraction"]) == 10


@pytest.mark.parametrize("recipe", ["gauss10-range", "scmk12-max", "lgmmc-gauss5"])
def test_build_equals_the_cli(recipe, data, cli, write_npy, tmp_path):
    X, _, _ = data
    (path,) = write_npy([X], stem="X")
    out = tmp_path / "k"
    r = cli("kernels", "--data", path, "--recipe", recipe, "--out", out)
    assert r.returncode == 0, r.stderr
    built = mkc.kernels.build(X, recipe)
    names = [line.split("\t")[1] for line in (out / "kernels.txt").read_text().splitlines()]
    assert built.names == names
    for p, k in enumerate(built.kernels, 1):
        np.testing.assert_array_equal(k, np.load(out / f"K{p}.npy"))


def test_recipe_dict_equals_the_named_recipe(data):
    X, _, _ = data
    spec = mkc.kernels.recipes()["lgmmc-gauss5"]
    a = mkc.kernels.build(X, spec)
    b = mkc.kernels.build(X, "lgmmc-gauss5")
    assert a.names == b.names
    for ka, kb in zip(a.kernels, b.kernels):
        np.testing.assert_array_equal(ka, kb)
    np.testing.assert_array_equal(a.features, b.features)
    assert a.features.min() == -1.0 and a.features.max() == 1.0  # scale = symmetric


def test_bad_recipes(data):
    X, _, _ = data
    with pytest.raises(ValueError, match="unknown recipe"):
        mkc.kernels.build(X, "no-such-recipe")
    with pytest.raises(ValueError, match="sigmaa"):
        mkc.kernels.build(X, {"kernels": [{"kind": "gaussian", "sigmaa": [1.0]}]})
    with pytest.raises(TypeError, match="recipe"):
        mkc.kernels.build(X, 3)
    with pytest.raises(ValueError, match="unknown recipe"):
        mkc.kernels.KernelTransformer("nope").fit(X)


def test_dataset_names_and_summaries():
    names = mkc.datasets.names()
    assert "ionosphere" in names and "digit" in names
    s = {d["name"]: d for d in mkc.datasets.summaries(DATA)}
    assert (s["ionosphere"]["n"], s["ionosphere"]["d"], s["ionosphere"]["present"]) == (351, 34, True)


def test_load_raw_dataset():
    ds = mkc.datasets.load("ionosphere", data_dir=DATA)
    assert ds.features.shape == (351, 34) and ds.views is None and ds.kernels is None
    assert list(ds.class_names) == ["b", "g"] or len(ds.class_names) == 2
    assert np.bincount(ds.labels).tolist() == [126, 225]


def test_load_with_recipe_and_cluster_equals_the_cli(cli, tmp_path):
    ds = mkc.datasets.load("ionosphere", data_dir=DATA, recipe="gauss-median")
    assert len(ds.kernels) == 1 and ds.kernels[0].shape == (351, 351)
    assert ds.n_clusters == 2 and ds.features.shape == (351, 34)
    labels = mkc.KKM(n_clusters=2, random_state=1).fit_predict(ds.kernels)
    out = tmp_path / "labels.txt"
    r = cli("cluster", "--method", "kkm", "--dataset", "ionosphere", "--recipe", "gauss-median",
            "--data-dir", DATA, "--clusters", 2, "--seed", 1, "--out", out)
    assert r.returncode == 0, r.stderr
    np.testing.assert_array_equal(labels, read_labels(out))
    acc = mkc.metrics.accuracy(ds.labels, labels)
    assert f"ACC {100 * acc:.2f}" in r.stdout


def test_multi_view_dataset():
    ds = mkc.datasets.load("mfeat-1v7", data_dir=DATA)
    assert len(ds.views) == 6 and all(v.shape[0] == 400 for _, v in ds.views)
    k = mkc.datasets.load("mfeat-1v7", data_dir=DATA, recipe="linear-per-view")
    assert len(k.kernels) == 6 and k.kernel_names[0].startswith(ds.views[0][0])


def test_dataset_errors(tmp_path):
    with pytest.raises(ValueError, match="not in the registry"):
        mkc.datasets.load("no-such-set", data_dir=DATA)
    with pytest.raises(FileNotFoundError, match="ionosphere"):
        mkc.datasets.load("ionosphere", data_dir=tmp_path)
