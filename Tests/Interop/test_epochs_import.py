"""`noisetag dataset import` of trials cut upstream, in a `.npz` as numpy writes it for pyntbci (X trials ×
channels × samples in volts, y, V one code cycle at the EEG's rate, fs) or a MAT-file as SciPy's `savemat`
writes it (the level-5 format of MATLAB's `save -v7`): stored and deflated, C and Fortran order, read back
exactly (X × 10⁶ as float32, V repeated to the trial's length); the imported set decodes with `decoder
evaluate`; bad files are one line and exit 1, options that do not apply exit 64."""
import json
import subprocess

import numpy as np
import pytest
import scipy.io

FS, CLASSES, TRIALS, CHANNELS, SECONDS = 120, 4, 20, 4, 2.0


def run(binary, *args, timeout=120):
    return subprocess.run([binary, *args], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=timeout)


def epochs(seed=1):
    """Trials whose channels carry a smoothed response to the attended code, in volts, with noise."""
    rng = np.random.default_rng(seed)
    cycle = rng.integers(0, 2, size=(CLASSES, FS)).astype("uint8")         # one second of code per class
    samples = int(SECONDS * FS)
    y = np.arange(TRIALS) % CLASSES
    rng.shuffle(y)
    kernel = np.hanning(12)
    X = np.empty((TRIALS, CHANNELS, samples), dtype="float32")
    for t, label in enumerate(y):
        stimulus = np.tile(cycle[label], 2)[:samples].astype(float)
        response = np.convolve(stimulus, kernel, "full")[:samples]
        X[t] = (response[None, :] * rng.uniform(0.5, 1.5, size=(CHANNELS, 1)) + rng.normal(size=(CHANNELS, samples))) * 5e-6
    return X, y.astype("uint8"), cycle


def savemat(compressed, oned_as):
    def save(path, **arrays):
        scipy.io.savemat(path, arrays, do_compression=compressed, oned_as=oned_as)
    return save


@pytest.mark.parametrize("save, order, suffix", [
    (np.savez, "C", "npz"), (np.savez_compressed, "C", "npz"), (np.savez, "F", "npz"),
    (savemat(False, "row"), "C", "mat"), (savemat(True, "column"), "F", "mat"),
])
def test_epochs_import_exactly_and_decode(noisetag_bin, tmp_path, save, order, suffix):
    X, y, V = epochs()
    path = tmp_path / ("epochs." + suffix)
    save(path, X=np.asarray(X, order=order), y=y, V=V, fs=FS)
    out = tmp_path / "ds"
    result = run(noisetag_bin, "dataset", "import", str(path), "--out", str(out))
    stdout = result.stdout.decode()
    assert result.returncode == 0, result.stderr.decode()
    assert "(%s): 20 trials, 4 classes, 4 channels at 120 Hz" % suffix in stdout and "X taken as volts" in stdout, stdout
    header = json.loads((out / "header.json").read_text())
    assert (header["n_trials"], header["n_channels"], header["n_samples"], header["n_classes"]) == (TRIALS, CHANNELS, 240, CLASSES)
    assert "n_continuous" not in header or header["n_continuous"] is None
    written = np.fromfile(out / "X.f32", dtype="<f4").reshape(X.shape)
    assert np.array_equal(written, (X * np.float32(1e6)).astype("float32"))
    assert np.array_equal(np.fromfile(out / "y.i32", dtype="<i4"), y)
    assert np.array_equal(np.fromfile(out / "V.u8", dtype="u1").reshape(CLASSES, 240), np.tile(V, 2))
    # The set decodes: nested selection in 5 folds, every trial right by the whole trial.
    report = run(noisetag_bin, "decoder", "evaluate", str(out), "--json")
    assert report.returncode == 0, report.stderr.decode()
    rows = {round(r["seconds"], 2): r["accuracy"] for r in json.loads(report.stdout)["rows"]}
    assert rows[2.0] >= 0.9, rows


def test_arrays_beside_the_four_may_be_anything(noisetag_bin, tmp_path):
    X, y, V = epochs()
    path = tmp_path / "extras.npz"
    np.savez(path, X=X, y=y, V=V, fs=FS, ch_names=np.array(["Oz", "O1", "O2", "Pz"]),
             events=np.array([{"onset": 1.0}], dtype=object), weights=np.ones(3, dtype=np.complex128))
    assert run(noisetag_bin, "dataset", "import", str(path), "--out", str(tmp_path / "ds")).returncode == 0
    assert json.loads((tmp_path / "ds" / "header.json").read_text())["channels"] == ["Oz", "O1", "O2", "Pz"]
    # The names label the spatial pattern in the evaluation's plot.
    plot = tmp_path / "plot.svg"
    assert run(noisetag_bin, "decoder", "evaluate", str(tmp_path / "ds"), "--fixed", "--plot", str(plot)).returncode == 0
    assert all(">%s</text>" % name in plot.read_text() for name in ["Oz", "O1", "O2", "Pz"])
    # A needed array of a dtype noisetag does not read is named with the reason.
    bad = tmp_path / "complex.npz"
    np.savez(bad, X=X.astype(np.complex64), y=y, V=V, fs=FS)
    one_line_failure(run(noisetag_bin, "dataset", "import", str(bad), "--out", str(tmp_path / "o")),
                     "complex.npz: X: dtype <c8 is not supported")


def test_units_and_codes_options(noisetag_bin, tmp_path):
    X, y, V = epochs()
    microvolts = tmp_path / "uv.npz"
    np.savez(microvolts, X=X * 1e6, y=y, fs=np.float64(FS))            # µV, float64, and no V
    codes = tmp_path / "codes.npy"
    np.save(codes, V[:, ::2])                                           # 60 bits a second
    out = tmp_path / "ds"
    result = run(noisetag_bin, "dataset", "import", str(microvolts), "--out", str(out), "--codes", str(codes), "--code-rate", "60")
    assert result.returncode == 0 and "X taken as µV" in result.stdout.decode(), result.stderr.decode()
    assert np.allclose(np.fromfile(out / "X.f32", dtype="<f4").reshape(X.shape), X * 1e6, rtol=1e-6)
    assert np.array_equal(np.fromfile(out / "V.u8", dtype="u1").reshape(CLASSES, 240), np.tile(np.repeat(V[:, ::2], 2, axis=1), 2))
    forced = run(noisetag_bin, "dataset", "import", str(microvolts), "--out", str(tmp_path / "v"), "--codes", str(codes),
                 "--units", "volts")
    assert forced.returncode == 0 and "X in volts" in forced.stdout.decode()


def one_line_failure(result, *names):
    stderr = result.stderr.decode(errors="replace")
    lines = stderr.strip().splitlines()
    assert result.returncode == 1 and len(lines) == 1 and "Usage" not in stderr, (result.returncode, stderr)
    for name in names:
        assert name in lines[0], (name, lines[0])


def test_bad_archives_are_one_line_and_misplaced_options_usage_errors(noisetag_bin, tmp_path):
    X, y, V = epochs()
    no_rate = tmp_path / "norate.npz"
    np.savez(no_rate, X=X, y=y, V=V)
    one_line_failure(run(noisetag_bin, "dataset", "import", str(no_rate), "--out", str(tmp_path / "o")), "norate.npz", "no fs array")
    with_nan = tmp_path / "nan.npz"
    X[3, 2, 17] = np.nan
    np.savez(with_nan, X=X, y=y, V=V, fs=FS)
    one_line_failure(run(noisetag_bin, "dataset", "import", str(with_nan), "--out", str(tmp_path / "o")),
                     "nan.npz: X: trial 3, channel 2, sample 17 is nan")
    result = run(noisetag_bin, "dataset", "import", str(no_rate), "--out", str(tmp_path / "o"), "--trial-start", "x")
    assert result.returncode == 64 and b"a .npz of epochs carries its own trials" in result.stderr, result.stderr


def test_matlab_files_are_read_or_refused_by_name(noisetag_bin, tmp_path):
    X, y, V = epochs()
    out = str(tmp_path / "o")
    # MATLAB counts classes from 1: the line says so.
    from_one = tmp_path / "from_one.mat"
    scipy.io.savemat(from_one, {"X": X, "y": (y.astype(int) + 1), "V": V, "fs": FS, "subject": "S01"})
    one_line_failure(run(noisetag_bin, "dataset", "import", str(from_one), "--out", out),
                     "from_one.mat: y: trial", "outside the 4 codes (these classes count from 1, as MATLAB does")
    # Text, cells and structs beside the arrays are passed over; a struct where X should be is named.
    extras = tmp_path / "extras.mat"
    scipy.io.savemat(extras, {"X": X, "y": y, "V": V.astype(bool), "fs": float(FS), "subject": "S01",
                              "info": {"amp": "BioSemi"}, "names": np.array(["Oz", "Pz"], dtype=object)})
    assert run(noisetag_bin, "dataset", "import", str(extras), "--out", out).returncode == 0
    # Channel names as a char matrix or a cell array of strings (and as many as the channels) are the dataset's.
    for names in (np.array(["Oz", "O1", "O2", "POz"]), np.array(["Oz", "O1", "O2", "POz"], dtype=object)):
        named = tmp_path / "named.mat"
        scipy.io.savemat(named, {"X": X, "y": y, "V": V, "fs": FS, "ch_names": names}, do_compression=True)
        assert run(noisetag_bin, "dataset", "import", str(named), "--out", str(tmp_path / "named")).returncode == 0
        assert json.loads((tmp_path / "named" / "header.json").read_text())["channels"] == ["Oz", "O1", "O2", "POz"]
    scipy.io.savemat(named, {"X": X, "y": y, "V": V, "fs": FS, "ch_names": np.array(["Oz", "O1"])})
    result = run(noisetag_bin, "dataset", "import", str(named), "--out", str(tmp_path / "fewer"))
    assert result.returncode == 0 and "ch_names holds 2 names for 4 channels: left out" in result.stdout.decode()
    assert "channels" not in json.loads((tmp_path / "fewer" / "header.json").read_text())
    struct = tmp_path / "struct.mat"
    scipy.io.savemat(struct, {"X": {"data": X}, "y": y, "V": V, "fs": FS})
    one_line_failure(run(noisetag_bin, "dataset", "import", str(struct), "--out", out), "struct.mat: X: a MATLAB struct, not a numeric array")
    # MATLAB 7.3 files are HDF5: refused with what to do.
    hdf5 = tmp_path / "v73.mat"
    hdf5.write_bytes(b"MATLAB 7.3 MAT-file, Platform: GLNXA64, Created on: Thu Nov 26 2026 HDF5 schema 1.00 ."
                     .ljust(512, b" ") + b"\x89HDF\r\n\x1a\n" + bytes(64))
    one_line_failure(run(noisetag_bin, "dataset", "import", str(hdf5), "--out", out), "v73.mat", "HDF5", "save it with -v7")
    cut = tmp_path / "cut.mat"
    cut.write_bytes((tmp_path / "extras.mat").read_bytes()[:3000])
    one_line_failure(run(noisetag_bin, "dataset", "import", str(cut), "--out", out), "cut.mat")
