//! The trade-off curve: the design's problem solved again at about a dozen levels
//! around its eps, each through [`Problem::solve`] (so each point is certified),
//! all under one shared time budget; and its chart.

use crate::chart::{Axes, Mark, Series, line_chart};
use crate::colormap::SERIES;
use crate::text::{num, short};
use pmldesign_model::Notion;
use pmldesign_solver::compare::estimation_figures;
use pmldesign_solver::{Design, DesignStatus, Problem, Settings, builtin};
use std::time::{Duration, Instant};

/// How many levels the curve has besides the design's own.
pub const POINTS: usize = 12;

/// One level of the curve.
#[derive(Debug, Clone, PartialEq)]
pub struct TradeoffPoint {
    /// The level eps.
    pub epsilon: f64,
    /// What solving at that level gave.
    pub outcome: PointOutcome,
    /// The design's own level (not solved again).
    pub chosen: bool,
}

/// The result at one level.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq)]
pub enum PointOutcome {
    /// A certified design: its objective, its certified bound and its status
    /// (`time_limit`: valid and private, but stopped before the optimum).
    Certified {
        /// Utility (minus the expected loss for a loss design).
        utility: f64,
        /// The certified bound on the utility of every feasible mechanism.
        upper_bound: f64,
        /// How the design ended.
        status: DesignStatus,
        /// Randomized response at the same LDP level.
        same_ldp: f64,
        /// Randomized response calibrated to the same worst-case PML.
        same_pml: f64,
        /// The design's estimation error per row (`m E|p^ - p|^2`, m -> inf,
        /// under the reference prior; docs/theory.md §13): `None` where an
        /// input cannot be told apart or past 1,024 inputs.
        estimation: Option<f64>,
        /// The same figure for randomized response at the same LDP level.
        same_ldp_estimation: Option<f64>,
    },
    /// Not computed: the budget was spent, or the solve failed (why, in words).
    NotComputed(String),
}

/// A trade-off curve: the points in increasing eps.
#[derive(Debug, Clone, PartialEq)]
pub struct Tradeoff {
    /// The points, the design's own among them.
    pub points: Vec<TradeoffPoint>,
    /// The shared budget, in seconds.
    pub budget_seconds: f64,
}

/// The levels of the curve around `epsilon`: [`POINTS`] values spaced evenly in
/// `ln eps` from eps/8 to 4 eps (none for eps <= 0).
pub fn grid(epsilon: f64) -> Vec<f64> {
    if !(epsilon > 0.0 && epsilon.is_finite()) {
        return Vec::new();
    }
    let (lo, hi) = ((epsilon / 8.0).ln(), (4.0 * epsilon).ln());
    (0..POINTS)
        .map(|k| (lo + (hi - lo) * k as f64 / (POINTS - 1) as f64).exp())
        .collect()
}

/// The notion of `d` at another level; `None` for ALIP (two levels) and for a
/// notion this curve does not know.
fn at_level(n: &Notion, epsilon: f64) -> Option<Notion> {
    Some(match n {
        Notion::Pml { .. } => Notion::Pml { epsilon },
        Notion::Pmc { .. } => Notion::Pmc { epsilon },
        Notion::Lip { .. } => Notion::Lip { epsilon },
        Notion::Ldp { .. } => Notion::Ldp { epsilon },
        Notion::Metric { metric, .. } => Notion::Metric {
            epsilon,
            metric: metric.clone(),
        },
        _ => return None,
    })
}

/// The outcome of a certified design.
fn certified(d: &Design) -> PointOutcome {
    PointOutcome::Certified {
        utility: d.utility_value(),
        upper_bound: d.certificate().upper_bound(),
        status: d.status(),
        same_ldp: d.baselines().same_ldp.utility,
        same_pml: d.baselines().pml_calibrated.utility,
        estimation: error_per_row(d.mechanism(), d),
        same_ldp_estimation: error_per_row(&d.baselines().same_ldp.mechanism, d),
    }
}

/// The estimation error per row of `m` under the reference prior of `d`, where
/// every input can be told apart.
fn error_per_row(m: &pmldesign_model::Mechanism, d: &Design) -> Option<f64> {
    estimation_figures(m, d.uncertainty())?
        .1
        .filter(|e| e.is_finite())
}

/// Solves the problem of `d` at `epsilon` with `settings`.
fn solve_at(d: &Design, epsilon: f64, settings: Settings) -> Result<Design, String> {
    let notion = at_level(d.notion(), epsilon).ok_or("ALIP has two levels")?;
    let problem = Problem::new(d.uncertainty().clone())
        .notion(notion)
        .labels(d.labels().to_vec())
        .settings(settings)
        .bare();
    let problem = match &d.loss() {
        Some(l) => problem.loss(l.loss().map_err(|e| e.to_string())?),
        None => problem.boxed_utility(
            builtin(d.utility_name())
                .ok_or_else(|| format!("utility {} is not built in", d.utility_name()))?,
        ),
    };
    problem.solve().map_err(|e| e.to_string())
}

/// A budget of `seconds` for the trade-off curve: `None` for 0 (no curve); a
/// negative or non-finite number is an error carrying it.
pub fn budget(seconds: f64) -> Result<Option<Duration>, f64> {
    match Duration::try_from_secs_f64(seconds) {
        Ok(d) if d.is_zero() => Ok(None),
        Ok(d) => Ok(Some(d)),
        Err(_) => Err(seconds),
    }
}

/// The curve of `d`: `grid` solved under `budget` shared evenly among the points
/// still to solve (with `settings` otherwise), and `d` itself marked as chosen.
pub fn tradeoff(d: &Design, settings: &Settings, budget: Duration) -> Tradeoff {
    let start = Instant::now();
    let levels = grid(d.epsilon());
    let mut points = vec![TradeoffPoint {
        epsilon: d.epsilon(),
        outcome: certified(d),
        chosen: true,
    }];
    for (k, &eps) in levels.iter().enumerate() {
        let left = budget.saturating_sub(start.elapsed());
        let outcome = if left < Duration::from_millis(20) {
            PointOutcome::NotComputed("the report's time budget was spent".into())
        } else {
            let share = left / (levels.len() - k) as u32;
            match solve_at(d, eps, settings.clone().time_limit(share)) {
                Ok(p) => certified(&p),
                Err(e) => PointOutcome::NotComputed(e),
            }
        };
        points.push(TradeoffPoint {
            epsilon: eps,
            outcome,
            chosen: false,
        });
    }
    points.sort_by(|a, b| a.epsilon.total_cmp(&b.epsilon));
    Tradeoff {
        points,
        budget_seconds: budget.as_secs_f64(),
    }
}

/// The chart of a curve; `objective` names the y axis.
pub fn chart(t: &Tradeoff, objective: &str) -> String {
    let (mut design, mut bound, mut ldp, mut pml, mut marks) =
        (vec![], vec![], vec![], vec![], vec![]);
    for p in &t.points {
        match &p.outcome {
            PointOutcome::Certified {
                utility,
                upper_bound,
                status,
                same_ldp,
                same_pml,
                ..
            } => {
                design.push((p.epsilon, *utility));
                bound.push((p.epsilon, *upper_bound));
                ldp.push((p.epsilon, *same_ldp));
                pml.push((p.epsilon, *same_pml));
                if *status == DesignStatus::TimeLimit {
                    let gap = upper_bound - utility;
                    marks.push(Mark::Hollow(
                        p.epsilon,
                        *utility,
                        format!(
                            "eps = {}: stopped by the time limit, certified gap {}",
                            short(p.epsilon),
                            num(gap)
                        ),
                    ));
                }
            }
            PointOutcome::NotComputed(why) => marks.push(Mark::Missing(
                p.epsilon,
                format!("eps = {}: not computed ({why})", short(p.epsilon)),
            )),
        }
        if p.chosen {
            marks.push(Mark::Vertical(
                p.epsilon,
                format!("chosen eps = {}", short(p.epsilon)),
            ));
        }
    }
    let series = vec![
        Series {
            name: "optimal design (certified)".into(),
            points: design,
            colour: SERIES[0],
            dashed: false,
            markers: true,
        },
        Series {
            name: "certified upper bound".into(),
            points: bound,
            colour: SERIES[2],
            dashed: true,
            markers: false,
        },
        same_ldp_series(ldp),
        Series {
            name: "randomized response, same PML".into(),
            points: pml,
            colour: SERIES[3],
            dashed: true,
            markers: false,
        },
    ];
    let alt = alt_text(t, objective);
    line_chart(
        &alt,
        &Axes {
            x_label: "eps (log scale)",
            y_label: objective,
            log_x: true,
        },
        &series,
        &marks,
    )
}

/// Randomized response at the same LDP level, as both charts draw it.
fn same_ldp_series(points: Vec<(f64, f64)>) -> Series {
    Series {
        name: "randomized response, same LDP eps".into(),
        points,
        colour: SERIES[1],
        dashed: true,
        markers: false,
    }
}

/// The estimation error per row against eps, for the design and randomized
/// response at the same LDP level, so that eps can be chosen by the error an
/// analyst will get; `None` where no point has the design's figure.
pub fn estimation_chart(t: &Tradeoff) -> Option<String> {
    let (mut design, mut ldp, mut words) = (vec![], vec![], vec![]);
    for p in &t.points {
        if let PointOutcome::Certified {
            estimation,
            same_ldp_estimation,
            ..
        } = &p.outcome
        {
            if let Some(e) = estimation {
                design.push((p.epsilon, *e));
                words.push(format!("eps {}: {}", short(p.epsilon), num(*e)));
            }
            if let Some(e) = same_ldp_estimation {
                ldp.push((p.epsilon, *e));
            }
        }
    }
    if design.is_empty() {
        return None;
    }
    let marks: Vec<Mark> = t
        .points
        .iter()
        .filter(|p| p.chosen)
        .map(|p| Mark::Vertical(p.epsilon, format!("chosen eps = {}", short(p.epsilon))))
        .collect();
    let series = vec![
        Series {
            name: "this design".into(),
            points: design,
            colour: SERIES[0],
            dashed: false,
            markers: true,
        },
        same_ldp_series(ldp),
    ];
    let alt = format!(
        "Estimation error per row (m E|p^ - p|^2) against eps: {}",
        words.join("; ")
    );
    Some(line_chart(
        &alt,
        &Axes {
            x_label: "eps (log scale)",
            y_label: "estimation error per row",
            log_x: true,
        },
        &series,
        &marks,
    ))
}

/// The curve in words, point by point.
pub fn alt_text(t: &Tradeoff, objective: &str) -> String {
    let words: Vec<String> = t
        .points
        .iter()
        .map(|p| match &p.outcome {
            PointOutcome::Certified {
                utility, status, ..
            } => {
                let how = if *status == DesignStatus::TimeLimit {
                    ", stopped by the time limit"
                } else {
                    ""
                };
                format!(
                    "eps {}: {}{how}{}",
                    short(p.epsilon),
                    num(*utility),
                    if p.chosen { " (chosen)" } else { "" }
                )
            }
            PointOutcome::NotComputed(_) => format!("eps {}: not computed", short(p.epsilon)),
        })
        .collect();
    format!("Trade-off of {objective} against eps: {}", words.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_spans_an_eighth_to_four_times() {
        let g = grid(1.0);
        assert_eq!(g.len(), POINTS);
        assert!((g[0] - 0.125).abs() < 1e-12 && (g[POINTS - 1] - 4.0).abs() < 1e-12);
        assert!(grid(0.0).is_empty());
    }
}
