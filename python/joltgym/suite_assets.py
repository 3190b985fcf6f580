"""Where the DeepMind Control Suite's models come from: dm_control's own files in the registry's
``dm-control`` wheel (``dm_control/suite/*.xml`` and the ``common/`` files they include), installed by
``pip install "joltgym[dmc]"``. joltgym ships none of these files. The models dm_control builds at run time
from its files (the swimmers of 6 and 15 links, the quadruped of its walk and run tasks, the manipulator with its
ball) are built from them here the same way, into joltgym's cache."""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

PREFIX = "dm_control"  # a task's xml_file "dm_control/<file>" is dm_control/suite/<file>
# Models built from swimmer.xml: file name -> number of links (dm_control's swimmer6 and swimmer15 tasks)
SWIMMERS = {"swimmer6.xml": 6, "swimmer15.xml": 15}
# Models built from quadruped.xml: file name -> floor size (dm_control's walk and run: 20 s at 0.5 and 5 m/s)
QUADRUPEDS = {"quadruped_walk.xml": 10.0, "quadruped_run.xml": 100.0}
# Models built from manipulator.xml: file name -> the props kept (dm_control's bring_ball)
MANIPULATORS = {"manipulator_bring_ball.xml": ("ball", "target_ball")}
_MANIPULATOR_PROPS = ("ball", "target_ball", "cup", "peg", "target_peg", "slot")


def suite_dir() -> Path:
    """dm_control's ``suite`` folder, found without importing dm_control (which loads MuJoCo's renderers)."""
    spec = importlib.util.find_spec("dm_control")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("the DeepMind Control Suite's models come from dm_control's wheel: "
                                  "pip install \"joltgym[dmc]\"")
    return Path(next(iter(spec.submodule_search_locations))) / "suite"


def suite_model_path(name: str) -> Path:
    """The suite's model ``name`` (``"cheetah.xml"``, or a built one: ``"swimmer6.xml"``); FileNotFoundError
    lists them."""
    if name in SWIMMERS:
        return _built(name, swimmer_xml(SWIMMERS[name]))
    if name in QUADRUPEDS:
        return _built(name, moving_quadruped_xml(QUADRUPEDS[name]))
    if name in MANIPULATORS:
        return _built(name, manipulator_xml(MANIPULATORS[name]))
    path = suite_dir() / name
    if not path.is_file():
        models = ", ".join(sorted([*(p.name for p in suite_dir().glob("*.xml")), *SWIMMERS, *QUADRUPEDS, *MANIPULATORS]))
        raise FileNotFoundError(f"dm_control's suite has no model {name!r}; models: {models}")
    return path


def swimmer_xml(links: int) -> str:
    """dm_control's swimmer of ``links`` bodies, built from its swimmer.xml as its suite builds it: a chain of
    segments 10 cm apart below the head, each with a hinge of range +-360/links degrees, a motor on it, and a
    velocimeter and a gyro at its site; the tracking cameras moved out by links / 6."""
    if links < 3:
        raise ValueError(f"a swimmer needs at least 3 links, got {links}")
    root = ET.fromstring((suite_dir() / "swimmer.xml").read_text())
    actuator = ET.SubElement(root, "actuator")
    sensor = ET.SubElement(root, "sensor")
    parent = root.find("./worldbody/body")
    limit = 360.0 / links
    for i in range(links - 1):
        body = ET.SubElement(parent, "body", name=f"segment_{i}", pos="0 .1 0")
        ET.SubElement(body, "geom", {"class": "visual", "name": f"visual_{i}"})
        ET.SubElement(body, "geom", {"class": "inertial", "name": f"inertial_{i}"})
        ET.SubElement(body, "site", name=f"site_{i}")
        ET.SubElement(body, "joint", name=f"joint_{i}", range=f"{-limit} {limit}")
        ET.SubElement(actuator, "motor", name=f"motor_{i}", joint=f"joint_{i}")
        ET.SubElement(sensor, "velocimeter", name=f"velocimeter_{i}", site=f"site_{i}")
        ET.SubElement(sensor, "gyro", name=f"gyro_{i}", site=f"site_{i}")
        parent = body
    scale = links / 6.0
    for camera in root.findall("./worldbody/body/camera"):
        if camera.get("mode") == "trackcom":
            camera.set("pos", " ".join(str(float(v) * scale) for v in camera.get("pos", "").split()))
    return ET.tostring(root, encoding="unicode")


def moving_quadruped_xml(floor_size: float) -> str:
    """dm_control's quadruped as its walk and run tasks build it from quadruped.xml: the floor ``floor_size`` m
    each way, without the walls, the ball, the target, the terrain and the rangefinder sensors."""
    root = ET.fromstring((suite_dir() / "quadruped.xml").read_text())
    worldbody = root.find("./worldbody")
    worldbody.find("./geom[@name='floor']").set("size", f"{floor_size:g} {floor_size:g} .5")
    for wall in ("wall_px", "wall_py", "wall_nx", "wall_ny", "terrain"):
        worldbody.remove(worldbody.find(f"./geom[@name='{wall}']"))
    worldbody.remove(worldbody.find("./body[@name='ball']"))
    worldbody.remove(worldbody.find("./site[@name='target']"))
    sensor = root.find("./sensor")
    for rangefinder in sensor.findall("./rangefinder"):
        sensor.remove(rangefinder)
    return ET.tostring(root, encoding="unicode")


def manipulator_xml(props: tuple[str, ...]) -> str:
    """dm_control's manipulator as its tasks build it from manipulator.xml: only the prop bodies ``props`` kept."""
    root = ET.fromstring((suite_dir() / "manipulator.xml").read_text())
    worldbody = root.find("./worldbody")
    for prop in _MANIPULATOR_PROPS:
        if prop not in props:
            worldbody.remove(worldbody.find(f"./body[@name='{prop}']"))
    return ET.tostring(root, encoding="unicode")


def _built(name: str, xml: str) -> Path:
    """A built model's file, beside copies of the suite's ``common/`` files it includes, in a folder of
    joltgym's cache named after what it was built from (written once, atomically)."""
    common = sorted((suite_dir() / "common").glob("*.xml"))
    digest = hashlib.sha256(xml.encode())
    for path in common:
        digest.update(path.read_bytes())
    folder = _cache_dir() / f"dm_control-{digest.hexdigest()[:12]}"
    target = folder / name
    if not target.is_file():
        (folder / "common").mkdir(parents=True, exist_ok=True)
        for path in common:
            shutil.copyfile(path, folder / "common" / path.name)
        with tempfile.NamedTemporaryFile("w", dir=folder, suffix=".xml", delete=False) as out:
            out.write(xml)
        os.replace(out.name, target)
    return target


def _cache_dir() -> Path:
    explicit = os.environ.get("JOLTGYM_CACHE_DIR")
    return Path(explicit) if explicit else Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "joltgym"
