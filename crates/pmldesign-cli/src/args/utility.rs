//! `--utility`: the built-in utilities of `pml design` (and a loss), and those
//! `pml compare` takes (no loss: it compares utilities across notions).

use clap::ValueEnum;

/// Built-in utilities.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum UtilityName {
    /// Mutual information I(X;Y) in nats.
    Mi,
    /// Total-variation information.
    Tv,
    /// Chi-square information.
    Chi2,
    /// Squared-Hellinger information.
    Hellinger,
    /// MAP accuracy: probability of guessing X from Y.
    Map,
    /// Minus an expected label-dependent loss (--loss or --loss-matrix): output y
    /// is the guess "X = x_y".
    Loss,
    /// Minus the error per released row of the estimated input distribution,
    /// tr(J^-1) - |p|^2 (A-optimal: the best design for `pml estimate`)
    Estimation,
}

impl UtilityName {
    /// The solver's name for it.
    pub fn name(self) -> &'static str {
        match self {
            UtilityName::Mi => "mi",
            UtilityName::Tv => "tv",
            UtilityName::Chi2 => "chi2",
            UtilityName::Hellinger => "hellinger",
            UtilityName::Map => "map",
            UtilityName::Loss => "loss",
            UtilityName::Estimation => "estimation",
        }
    }
}

/// The utilities `pml compare` takes: every built-in one, no loss.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ComparedUtility {
    /// Mutual information I(X;Y) in nats.
    Mi,
    /// Total-variation information.
    Tv,
    /// Chi-square information.
    Chi2,
    /// Squared-Hellinger information.
    Hellinger,
    /// MAP accuracy: probability of guessing X from Y.
    Map,
}

impl ComparedUtility {
    /// The solver's name for it.
    pub fn name(self) -> &'static str {
        match self {
            ComparedUtility::Mi => "mi",
            ComparedUtility::Tv => "tv",
            ComparedUtility::Chi2 => "chi2",
            ComparedUtility::Hellinger => "hellinger",
            ComparedUtility::Map => "map",
        }
    }
}
