"""What a checker answers: right on every position, or the first position
where the student's function is wrong and why."""

from __future__ import annotations

import html
from dataclasses import dataclass

from ..i18n import _


@dataclass(frozen=True)
class Verdict:
    """The answer of :func:`zerosum.exercises.check`.

    ``ok`` -- every position agreed with the reference; ``checked`` -- the
    positions tried (up to and including the first wrong one); ``message``
    -- what is right, or why the answer is wrong (in the student's
    language); ``position`` -- the first wrong position drawn as text, and
    ``where`` how it was reached (empty when ``ok``)."""

    exercise: str
    ok: bool
    checked: int
    message: str
    position: str = ""
    where: str = ""

    def __bool__(self) -> bool:
        return self.ok

    def __str__(self) -> str:
        lines = [("✔ " if self.ok else "✘ ") + self.message]
        if self.where:
            lines.append(self.where)
        if self.position:
            lines.append(self.position)
        return "\n".join(lines)

    def __repr__(self) -> str:
        return str(self)

    def _repr_html_(self) -> str:
        colour = "#1a7f37" if self.ok else "#cf222e"
        parts = [
            f'<div class="zerosum-verdict" style="border-left:4px solid {colour};padding-left:8px">'
        ]
        head = html.escape(str(self).splitlines()[0])
        parts.append(f'<p style="color:{colour};font-weight:bold">{head}</p>')
        if self.where:
            parts.append(f"<p>{html.escape(self.where)}</p>")
        if self.position:
            parts.append(f"<pre>{html.escape(self.position)}</pre>")
        parts.append("</div>")
        return "".join(parts)


def passed(exercise: str, checked: int) -> Verdict:
    return Verdict(
        exercise,
        True,
        checked,
        _("Right on all {n} positions: your {name} agrees with the reference.").format(
            n=checked, name=exercise
        ),
    )
