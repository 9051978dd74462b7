"""Regenerate the viewer's pictures in docs/img with headless Chromium (as the browser
tests run it): the UR5 of example-robot-data falling for 1 s from rest at q = 0,
shown at t = 0.5 s, its page captured whole at 1240 × 577 CSS pixels.

    PYTHONPATH=src python tools/viewer_screenshots.py [docs/img]

Needs chromium, chromedriver, selenium and example-robot-data."""

import shutil
import sys
import tempfile
import time
from pathlib import Path

import eslabon as es
from eslabon import viz


def _browser(width, height):
    from selenium import webdriver

    opts = webdriver.ChromeOptions()
    opts.binary_location = shutil.which("chromium")
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--enable-unsafe-swiftshader",
                "--use-angle=swiftshader", "--hide-scrollbars",
                f"--user-data-dir={tempfile.mkdtemp()}"):  # fmt: skip
        opts.add_argument(arg)
    driver = webdriver.Chrome(
        service=webdriver.ChromeService(executable_path=shutil.which("chromedriver")),
        options=opts,
    )
    # the window's inner size, whatever the browser's frame takes
    driver.set_window_size(width, height)
    inner = driver.execute_script("return [window.innerWidth, window.innerHeight]")
    driver.set_window_size(2 * width - inner[0], 2 * height - inner[1])
    return driver


def _shot(driver, page: Path, t: float, out: Path):
    driver.get(page.as_uri())
    for _ in range(400):
        if driver.execute_script("return !!(window.eslabonViewer && window.eslabonViewer.ready)"):
            break
        time.sleep(0.05)
    driver.execute_script(f"window.eslabonViewer.pause(); window.eslabonViewer.setTime({t})")
    time.sleep(1.0)
    driver.save_screenshot(str(out))
    print(out, driver.execute_script("return [window.innerWidth, window.innerHeight]"))


def main(folder="docs/img", **options):
    robots = None
    for base in map(Path, sys.path):
        if (base / "cmeel.prefix/share/example-robot-data/robots").is_dir():
            robots = base / "cmeel.prefix/share/example-robot-data/robots"
    if robots is None:
        sys.exit("example-robot-data is not installed")
    ur5 = es.load_model(robots / "ur_description/urdf/ur5_robot.urdf")
    fall = es.simulate(ur5, None, None, 1.0, 0.01)
    with tempfile.TemporaryDirectory() as tmp:
        page = viz.Viewer(ur5, fall, title="UR5", autoplay=False, **options).save(
            Path(tmp) / "ur5.html"
        )
        driver = _browser(1240, 577)
        try:
            _shot(driver, page, 0.5, Path(folder) / "viewer_ur5.png")
        finally:
            driver.quit()


if __name__ == "__main__":
    main(*sys.argv[1:])
