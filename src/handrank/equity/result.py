"""`Result`: what `equity.calculate` answers, for hold'em and for every variant alike."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Result:
    """Per player: `equity` (the share of the pot: wins plus tie shares, a 3-way tie counting
    one third), `win` (share of showdowns won outright) and `tie` (share of showdowns tied).
    `showdowns`: deals times boards, weighted (the samples for Monte Carlo). Monte Carlo only:
    `stderr`, the standard error of each equity, and `acceptance`, the share of drawn deals
    whose hands did not collide."""

    players: tuple[str, ...]
    equity: tuple[float, ...]
    win: tuple[float, ...]
    tie: tuple[float, ...]
    showdowns: float
    exact: bool
    stderr: tuple[float, ...] | None = None
    acceptance: float | None = None

    def __str__(self) -> str:
        width = max(len("hand/range"), *(len(p) for p in self.players))
        lines = [f"{'#':>2}  {'hand/range':<{width}}  {'equity':>8}  {'win':>8}  {'tie':>8}"]
        for i, name in enumerate(self.players):
            lines.append(f"{i + 1:>2}  {name:<{width}}  {self.equity[i]:>8.4%}  {self.win[i]:>8.4%}"
                         f"  {self.tie[i]:>8.4%}")
        how = "exact" if self.exact else f"Monte Carlo, max stderr {max(self.stderr or [0]):.2e}"
        lines.append(f"{self.showdowns:,.0f} showdowns ({how})")
        return "\n".join(lines)
