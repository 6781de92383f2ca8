//! `--utility`: the built-in utilities, shared by `pml design` and `pml compare`.

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
        }
    }
}
