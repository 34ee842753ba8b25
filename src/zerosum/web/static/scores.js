// Scores as the page writes them.
//
// Scores follow docs/messages.md: from the side to move of the position
// searched; a proven win p plies away is 1000000 - p, a proven loss
// -(1000000 - p), a proven draw 0 with exact true; anything else heuristic.

import { t, formatNumber } from "./i18n.js";

export const WIN = 1000000;
// |score| at least this is decisive: proven in its sign (the search's
// MAX_PLY); its distance is exact only with `exact` true.
const DECISIVE = WIN - 10000;

/** {kind: "win"|"loss"|"draw"|"heuristic", plies, score, exact} for a score.
 * A decisive score without `exact` (a win found past a depth limit) is a
 * win or loss whose distance is an upper bound, as the command line says.
 * `plies` is the distance the server sent with the score (a move entry's,
 * a progress's); only a bare score (the solver's bounds, a remembered
 * score) has its distance read from the encoding. */
export function classify(score, exact, plies) {
  const value = typeof score === "number" && Number.isFinite(score) ? score : 0;
  const proven = Boolean(exact);
  const sent = typeof plies === "number" ? plies : null;
  if (value >= DECISIVE) return { kind: "win", plies: sent ?? WIN - value, score: value, exact: proven };
  if (value <= -DECISIVE) return { kind: "loss", plies: sent ?? WIN + value, score: value, exact: proven };
  if (proven && value === 0) return { kind: "draw", plies: null, score: 0, exact: true };
  return { kind: "heuristic", plies: null, score: value, exact: proven };
}

/** A signed heuristic number, short: +35, -120, +1.2k. */
export function signed(score) {
  const value = Math.round(score);
  const sign = value > 0 ? "+" : value < 0 ? "−" : "";
  const size = Math.abs(value);
  if (size >= 10000) return sign + formatNumber(size / 1000, { maximumFractionDigits: 0 }) + "k";
  if (size >= 1000) return sign + formatNumber(size / 1000, { maximumFractionDigits: 1 }) + "k";
  return sign + String(size);
}

/** Monte Carlo tree search's extras of a move entry (docs/messages.md):
 * its win rate when unproven, or whether a proven distance is unknown. */
function mcts(extra) {
  if (!extra || typeof extra.visits !== "number") return null;
  return { rate: typeof extra.win_rate === "number" ? extra.win_rate : null, visits: extra.visits, plies: extra.plies };
}

/** The badge text: W7, D, L4 or +35; for an MCTS move its win rate (61%),
 * W or L when proven without a known distance. `extra` is the move entry. */
export function badgeText(score, exact, extra) {
  const c = classify(score, exact, extra ? extra.plies : undefined);
  const m = mcts(extra);
  if (m && !exact && m.rate !== null) return Math.round(m.rate * 100) + "%";
  // the tree view's words (胜5 / 负4 in Chinese): one notation on the page
  if (m && exact && m.plies === null && (c.kind === "win" || c.kind === "loss")) return c.kind === "win" ? t("W") : t("L");
  if (c.kind === "win") return t("W{ply}", { ply: c.plies });
  if (c.kind === "loss") return t("L{ply}", { ply: c.plies });
  if (c.kind === "draw") return t("D");
  return signed(c.score);
}

/** The score in words, exactly as the server sent it (`words`: the one
 * formatter, beside the search's Score, in the session's language; for an
 * unproven MCTS move its win rate over its visits); "–" when it sent none.
 * The page never words a score itself. */
export function scoreWords(sent) {
  return sent && typeof sent.words === "string" ? sent.words : "–";
}

/** The first player's share of the evaluation bar, 0..1, for a score
 * seen by `mover` (0 or 1). */
export function barFraction(score, exact, mover) {
  const c = classify(score, exact);
  let share;
  if (c.kind === "win") share = 1;
  else if (c.kind === "loss") share = 0;
  else if (c.kind === "draw") share = 0.5;
  else share = 0.5 + 0.5 * Math.tanh(c.score / 200);
  return mover === 1 ? 1 - share : share;
}

/** The evaluation in words from the first player's side, naming the winner. */
export function evalWords(score, exact, mover, names) {
  const c = classify(score, exact);
  const other = mover === 1 ? 0 : 1;
  const name = (index) => (names && names[index]) || String(index + 1);
  if (c.kind === "win" || c.kind === "loss") {
    const player = name(c.kind === "win" ? mover : other);
    return c.plies === 1 ? t("{player} wins in 1 ply", { player }) : t("{player} wins in {n} plies", { player, n: c.plies });
  }
  if (c.kind === "draw") return t("draw");
  const firstSide = mover === 1 ? -c.score : c.score;
  if (Math.round(firstSide) === 0) return t("even (heuristic)");
  return t("{score} for {player} (heuristic)", {
    score: signed(Math.abs(firstSide)),
    player: name(firstSide > 0 ? 0 : 1),
  });
}

/** Positions per second, compact: 1.2M, 35k. */
export function compact(value) {
  if (typeof value !== "number" || !Number.isFinite(value)) return "–";
  return formatNumber(value, { notation: "compact", maximumSignificantDigits: 3 });
}
