//! The privacy level, `--epsilon` or `--exp-epsilon`, and its check.

use crate::error::CliError;
use clap::Args;

/// The privacy level, as eps or as e^eps.
#[derive(Debug, Args)]
#[group(required = true, multiple = false)]
pub struct Level {
    /// Privacy level eps >= 0 (natural log).
    #[arg(long, allow_hyphen_values = true)]
    pub epsilon: Option<f64>,
    /// Privacy level given as e^eps >= 1 (papers write eps = ln(9/8) as 1.125).
    #[arg(long, allow_hyphen_values = true)]
    pub exp_epsilon: Option<f64>,
}

impl Level {
    /// The level where `--epsilon` or `--exp-epsilon` is given, checked.
    pub fn given(&self) -> Result<Option<f64>, CliError> {
        match (self.epsilon, self.exp_epsilon) {
            (None, None) => Ok(None),
            _ => self.epsilon().map(Some),
        }
    }

    /// eps, from whichever flag was given.
    pub fn epsilon(&self) -> Result<f64, CliError> {
        match (self.epsilon, self.exp_epsilon) {
            (Some(e), _) => {
                if !e.is_finite() || e < 0.0 {
                    return Err(CliError::Usage(format!(
                        "invalid --epsilon = {e}: the privacy level must be a finite number >= 0; pass e.g. --epsilon 0.5"
                    )));
                }
                Ok(e)
            }
            (_, Some(x)) => {
                if !x.is_finite() || x < 1.0 {
                    return Err(CliError::Usage(format!(
                        "invalid --exp-epsilon = {x}: e^eps must be a finite number >= 1; pass e.g. --exp-epsilon 1.125"
                    )));
                }
                Ok(x.ln())
            }
            _ => Err(CliError::Usage(
                "give the level with --epsilon or --exp-epsilon".into(),
            )),
        }
    }
}
