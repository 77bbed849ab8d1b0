"""The UI on OpenGL ES 3.1, the most a Raspberry Pi 4/5 (Mesa V3D) offers.

Mesa's llvmpipe here gives OpenGL ES 3.2, so a plain GLES run would not notice a call that only
ES 3.2 has (pyglet's own ``Framebuffer.attach_texture`` calls ``glFramebufferTexture``, which is
ES 3.2 / GL 3.2 only). So this test runs the UI in its own process (pyglet's API choice is
process-wide) on an OpenGL ES context, with pyglet's GL function table cut down to the entry
points that both OpenGL ES 3.1 and OpenGL 3.3 core have (``ES31_AND_GL33``): any other one
raises and is recorded, wherever pyglet or the kiosk imported it from. ``debug_gl`` is on,
so an enum ES does not accept (a texture format, a filter) raises too. The child builds the
atlas and the frame cache, renders the play screen at 800x480 (the Pi's 7" display),
saves a screenshot and checks its pixels, then shows every other screen and the card game's
play screen (its own atlas); the parent reads its report.

Run the child alone to look at the picture: ``python -m tests.kiosk.ui.shell.test_gles DIR``.
Skips with the reason when no OpenGL ES context can be made.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from kiosk.games.labyrinth import geometry

pytestmark = pytest.mark.display

ROOT = Path(__file__).resolve().parents[4]
NO_CONTEXT = 77  # the child's exit status when it cannot make an OpenGL ES context

# Every entry point in Khronos' GLES3/gl31.h whose desktop version pyglet's own table
# (pyglet/gl/gl.py, ``requires='OpenGL x.y'``) dates at 3.3 or before ("gl" prefix left off).
# ES 3.1 entry points that need desktop GL 4.x (glTexStorage2D, glProgramUniform*, ...) are
# left out on purpose: the desktop path asks for GL 3.3.
ES31_AND_GL33 = frozenset(
    "gl" + name
    for name in """
ActiveTexture AttachShader BeginQuery BeginTransformFeedback BindAttribLocation BindBuffer BindBufferBase
BindBufferRange BindFramebuffer BindRenderbuffer BindSampler BindTexture BindVertexArray BlendColor
BlendEquation BlendEquationSeparate BlendFunc BlendFuncSeparate BlitFramebuffer BufferData BufferSubData
CheckFramebufferStatus Clear ClearBufferfi ClearBufferfv ClearBufferiv ClearBufferuiv ClearColor
ClearStencil ClientWaitSync ColorMask CompileShader CompressedTexImage2D CompressedTexImage3D
CompressedTexSubImage2D CompressedTexSubImage3D CopyBufferSubData CopyTexImage2D CopyTexSubImage2D
CopyTexSubImage3D CreateProgram CreateShader CullFace DeleteBuffers DeleteFramebuffers DeleteProgram
DeleteQueries DeleteRenderbuffers DeleteSamplers DeleteShader DeleteSync DeleteTextures DeleteVertexArrays
DepthFunc DepthMask DetachShader Disable DisableVertexAttribArray DrawArrays DrawArraysInstanced DrawBuffers
DrawElements DrawElementsInstanced DrawRangeElements Enable EnableVertexAttribArray EndQuery
EndTransformFeedback FenceSync Finish Flush FlushMappedBufferRange FramebufferRenderbuffer
FramebufferTexture2D FramebufferTextureLayer FrontFace GenBuffers GenFramebuffers GenQueries
GenRenderbuffers GenSamplers GenTextures GenVertexArrays GenerateMipmap GetActiveAttrib GetActiveUniform
GetActiveUniformBlockName GetActiveUniformBlockiv GetActiveUniformsiv GetAttachedShaders GetAttribLocation
GetBooleani_v GetBooleanv GetBufferParameteri64v GetBufferParameteriv GetBufferPointerv GetError GetFloatv
GetFragDataLocation GetFramebufferAttachmentParameteriv GetInteger64i_v GetInteger64v GetIntegeri_v
GetIntegerv GetMultisamplefv GetProgramInfoLog GetProgramiv GetQueryObjectuiv GetQueryiv
GetRenderbufferParameteriv GetSamplerParameterfv GetSamplerParameteriv GetShaderInfoLog GetShaderSource
GetShaderiv GetString GetStringi GetSynciv GetTexLevelParameterfv GetTexLevelParameteriv GetTexParameterfv
GetTexParameteriv GetTransformFeedbackVarying GetUniformBlockIndex GetUniformIndices GetUniformLocation
GetUniformfv GetUniformiv GetUniformuiv GetVertexAttribIiv GetVertexAttribIuiv GetVertexAttribPointerv
GetVertexAttribfv GetVertexAttribiv Hint IsBuffer IsEnabled IsFramebuffer IsProgram IsQuery IsRenderbuffer
IsSampler IsShader IsSync IsTexture IsVertexArray LineWidth LinkProgram MapBufferRange PixelStorei
PolygonOffset ReadBuffer ReadPixels RenderbufferStorage RenderbufferStorageMultisample SampleCoverage
SampleMaski SamplerParameterf SamplerParameterfv SamplerParameteri SamplerParameteriv Scissor ShaderSource
StencilFunc StencilFuncSeparate StencilMask StencilMaskSeparate StencilOp StencilOpSeparate TexImage2D
TexImage3D TexParameterf TexParameterfv TexParameteri TexParameteriv TexSubImage2D TexSubImage3D
TransformFeedbackVaryings Uniform1f Uniform1fv Uniform1i Uniform1iv Uniform1ui Uniform1uiv Uniform2f
Uniform2fv Uniform2i Uniform2iv Uniform2ui Uniform2uiv Uniform3f Uniform3fv Uniform3i Uniform3iv Uniform3ui
Uniform3uiv Uniform4f Uniform4fv Uniform4i Uniform4iv Uniform4ui Uniform4uiv UniformBlockBinding
UniformMatrix2fv UniformMatrix2x3fv UniformMatrix2x4fv UniformMatrix3fv UniformMatrix3x2fv
UniformMatrix3x4fv UniformMatrix4fv UniformMatrix4x2fv UniformMatrix4x3fv UnmapBuffer UseProgram
ValidateProgram VertexAttrib1f VertexAttrib1fv VertexAttrib2f VertexAttrib2fv VertexAttrib3f VertexAttrib3fv
VertexAttrib4f VertexAttrib4fv VertexAttribDivisor VertexAttribI4i VertexAttribI4iv VertexAttribI4ui
VertexAttribI4uiv VertexAttribIPointer VertexAttribPointer Viewport WaitSync
""".split()
)

# What OpenGL ES 3.2 added (Khronos GLES3/gl32.h minus gl31.h): none of it may be in the list above.
ES32_ADDITIONS = frozenset(
    """
glBlendBarrier glBlendEquationSeparatei glBlendEquationi glBlendFuncSeparatei glBlendFunci glColorMaski
glCopyImageSubData glDebugMessageCallback glDebugMessageControl glDebugMessageInsert glDisablei
glDrawElementsBaseVertex glDrawElementsInstancedBaseVertex glDrawRangeElementsBaseVertex glEnablei
glFramebufferTexture glGetDebugMessageLog glGetGraphicsResetStatus glGetObjectLabel glGetObjectPtrLabel
glGetPointerv glGetSamplerParameterIiv glGetSamplerParameterIuiv glGetTexParameterIiv glGetTexParameterIuiv
glGetnUniformfv glGetnUniformiv glGetnUniformuiv glIsEnabledi glMinSampleShading glObjectLabel
glObjectPtrLabel glPatchParameteri glPopDebugGroup glPrimitiveBoundingBox glPushDebugGroup glReadnPixels
glSamplerParameterIiv glSamplerParameterIuiv glTexBuffer glTexBufferRange glTexParameterIiv
glTexParameterIuiv glTexStorage3DMultisample
""".split()
)


# ---------------------------------------------------------------- the child process
def _guard_gl_table(refused: list[str], called: set[str]) -> int:
    """Replace every pyglet GL function outside ES31_AND_GL33 by one that records and raises,
    in every loaded module that holds it (``from pyglet.gl import X`` copies the name) and in
    module-level tables of functions (pyglet's uniform setters); record the allowed ones called.
    Returns how many entry points were cut off."""
    import pyglet.gl.gl as glmod

    class RefusedByES31(Exception):
        pass

    def refuse(name):
        def refused_call(*_args, **_kwargs):
            refused.append(name)
            raise RefusedByES31(f"{name} is not in OpenGL ES 3.1 (and GL 3.3 core)")

        return refused_call

    def record(name, fn):
        def allowed_call(*args):
            called.add(name)
            return fn(*args)

        return allowed_call

    originals = {
        name: getattr(glmod, name) for name in dir(glmod) if name.startswith("gl") and callable(getattr(glmod, name))
    }
    swap = {id(fn): (record(name, fn) if name in ES31_AND_GL33 else refuse(name)) for name, fn in originals.items()}
    for module in list(sys.modules.values()):
        if module is None or not module.__name__.startswith(("pyglet", "kiosk")):
            continue
        for attr, value in list(vars(module).items()):
            if id(value) in swap and attr.startswith("gl"):
                setattr(module, attr, swap[id(value)])
            elif isinstance(value, dict):
                for key, item in list(value.items()):
                    if isinstance(item, tuple) and any(id(x) in swap for x in item):
                        value[key] = tuple(swap.get(id(x), x) if callable(x) else x for x in item)
    return sum(1 for name in originals if name not in ES31_AND_GL33)


def child(out_dir: Path) -> dict:
    """Run the play screen on OpenGL ES with the guarded table; return what was seen."""
    import ctypes

    import pyglet

    pyglet.options["headless"] = True
    pyglet.options["shadow_window"] = False
    pyglet.options["debug_gl"] = True  # every GL error raises at the call that made it

    try:
        from pyglet import gl
        import pyglet.window  # noqa: F401
    except Exception as exc:  # no libEGL on this machine: the parent skips
        print(f"no offscreen OpenGL ES context: {exc}", file=sys.stderr)
        sys.exit(NO_CONTEXT)

    from kiosk.core.events import GameSetup, NewGame
    from kiosk.games.labyrinth.events import SelectArrow
    from kiosk.ui.shell.window import UI, _import_screens, make_window
    from kiosk.ui.art import CORRIDOR, SEAT_COLORS, WALL
    from kiosk.games.labyrinth.screens.board import ARROW_ON
    from kiosk.ui.shell.runner import Offscreen

    from tests.support.offscreen import Pixels, near
    from tests.games.labyrinth.test_play import MiniKiosk

    _import_screens()
    import pyglet.image.buffer  # noqa: F401  (loaded now so its copies of the names are guarded too)

    refused: list[str] = []
    called: set[str] = set()
    cut = _guard_gl_table(refused, called)

    report: dict = {"cut": cut}
    try:
        window = make_window("offscreen", (800, 480), "gles")
    except Exception as exc:  # no EGL / no Mesa GLES on this machine: the parent skips
        print(f"no offscreen OpenGL ES context: {exc}", file=sys.stderr)
        sys.exit(NO_CONTEXT)
    report["version"] = ctypes.cast(gl.glGetString(gl.GL_VERSION), ctypes.c_char_p).value.decode()
    kiosk = MiniKiosk()
    ui = UI(kiosk, window, layout="tabletop", first="play")
    off = Offscreen(ui, kiosk, frame_s=0.2)
    ui.post(NewGame(GameSetup.of("human,human", seed=2)))
    off.settle()
    ui.post(SelectArrow("S3"))  # a preview: the cache is updated in part
    off.settle()
    off.frame()
    report["atlas"] = ui.atlas.texture.width > 0
    report["cache"] = {"broken": ui.cache.broken, "renders": ui.cache.renders, "partial": ui.cache.partial}
    shot = ui.screenshot(out_dir / "play-800x480-gles31.png")
    report["shot"] = str(shot)

    image = Pixels()
    L = ui.layout
    board = [image(*geometry.cell_rect(L, r, c).center) for r in range(7) for c in range(7)]
    corner = geometry.cell_rect(L, 3, 3)
    m = ui.screen.board.model
    report["pixels"] = {
        "corridor_centres": sum(near(px, CORRIDOR, 50) for px in board),
        "wall_corner": near(image(corner.x + corner.w * 0.1, corner.y + corner.h * 0.1), WALL, 40),
        "arrow_on": near(image(*geometry.arrow_rect(L, "N1").center), ARROW_ON, 60),
        "pawns": [
            near(image(spr.x, spr.y - L.cell * 0.12), SEAT_COLORS[seat], 70)
            for spr, seat in zip(ui.screen.board._pawns, m.seats)
        ],
    }
    # the cached frame against the same frame drawn layer by layer
    cached = Pixels().data
    ui.cache.broken = "test"
    ui.draw()
    full = Pixels().data
    ui.cache.broken = None
    report["differing"] = sum(
        1 for i in range(0, len(full), 4) if max(abs(cached[i + k] - full[i + k]) for k in range(3)) > 24
    )

    # every other screen, and the card game (its own atlas) on the whole kiosk
    import tempfile

    from kiosk.core.kiosk import Kiosk, KioskOptions
    from kiosk.ui.shell.screen import SCREENS

    for name in sorted(SCREENS):
        ui.goto(name)
        off.frame()
        off.frame()
    ui.close()
    kiosk.sessions["labyrinth"].close()
    with tempfile.TemporaryDirectory() as state:
        cards = Kiosk(options=KioskOptions(fast=True, ring="none", state_dir=Path(state)))
        ui = UI(cards, window, layout="tabletop", first="setup")
        off = Offscreen(ui, cards, frame_s=0.2)
        ui.post(NewGame(GameSetup.of("human,human", game="cards", seed=13)))
        off.settle()
        report["card_screen"] = ui.screen.name
        ui.screenshot(out_dir / "cards-800x480-gles31.png")
        ui.close()
        cards.close()
    report["screens"] = sorted(SCREENS)
    report["refused"] = list(refused)
    # a control: the guard does catch what pyglet's own Framebuffer.attach_texture calls
    try:
        pyglet.image.Framebuffer().attach_texture(pyglet.image.Texture.create(8, 8))
        report["control"] = "attach_texture went through"
    except Exception as exc:  # noqa: BLE001 (whatever it is, it is reported)
        report["control"] = f"{type(exc).__name__}: {exc}"
    try:  # and debug_gl is on: an enum ES does not know raises
        gl.glEnable(0x0B10)  # GL_POINT_SMOOTH, desktop GL 1.x only
        report["debug_gl"] = "GL_POINT_SMOOTH went through"
    except gl.GLException as exc:
        report["debug_gl"] = f"GLException: {exc}"
    report["called"] = sorted(called)
    return report


# ---------------------------------------------------------------- the test
def test_the_play_screen_needs_only_opengl_es_3_1(shots_dir):
    proc = subprocess.run(
        [sys.executable, "-m", "tests.kiosk.ui.shell.test_gles", str(shots_dir)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
    )
    if proc.returncode == NO_CONTEXT:
        pytest.skip(proc.stderr.strip().splitlines()[-1])
    assert proc.returncode == 0, proc.stderr[-4000:]
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert report["version"].startswith("OpenGL ES 3"), report["version"]
    assert report["refused"] == [], f"GL calls that OpenGL ES 3.1 lacks: {sorted(set(report['refused']))}"
    assert report["control"].startswith("RefusedByES31: glFramebufferTexture "), report["control"]
    assert report["debug_gl"].startswith("GLException: (0x1280)"), report["debug_gl"]  # GL_INVALID_ENUM
    assert report["cut"] > 300  # the desktop-only and newer entry points are really cut
    called = set(report["called"])
    assert {
        "glFramebufferTexture2D",
        "glGenerateMipmap",
        "glRenderbufferStorage",
        "glBlitFramebuffer",
        "glScissor",
    } <= called, "the atlas and the frame cache were built and used"
    assert report["atlas"] and report["card_screen"] == "cards_play"
    assert len(report["screens"]) >= 8, report["screens"]
    cache = report["cache"]
    assert cache["broken"] is None and cache["renders"] >= 2 and cache["partial"] >= 1, cache
    px = report["pixels"]
    assert px["corridor_centres"] > 5 and px["wall_corner"] and px["arrow_on"], px
    assert all(px["pawns"]) and len(px["pawns"]) == 2, px
    assert report["differing"] < 800 * 480 * 0.001, f"{report['differing']} pixels differ from a full redraw"
    assert Path(report["shot"]).stat().st_size > 10_000


def test_the_allowed_list_is_es_3_1_and_gl_3_3():
    """The list itself: nothing ES 3.2 added, and nothing pyglet's table dates after GL 3.3."""
    import importlib.util
    import re

    assert not ES31_AND_GL33 & ES32_ADDITIONS
    # read, not imported: importing pyglet.gl here (not headless) would look for an X display
    source = (Path(importlib.util.find_spec("pyglet").origin).parent / "gl" / "gl.py").read_text()
    needs = dict(re.findall(r"_link_function\('(gl\w+)'.*?requires='OpenGL (\d\.\d)'", source))
    assert ES31_AND_GL33 <= set(needs), sorted(ES31_AND_GL33 - set(needs))
    late = sorted(name for name in ES31_AND_GL33 if needs[name] > "3.3")
    assert not late, late


if __name__ == "__main__":
    print(json.dumps(child(Path(sys.argv[1]))))
