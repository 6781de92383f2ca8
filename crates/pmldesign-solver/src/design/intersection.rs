//! Designs under several constraints at once (docs/theory.md §3): each constraint is a
//! notion over a set of priors, their cones are intersected
//! ([`ColumnCone::intersection`]), and the optimum over the intersection's extreme
//! rays (generic enumeration) is certified once per constraint by re-measuring
//! that constraint's notion over its set.
//!
//! Example: PML for every prior in a ball around an estimate, and PMC for the
//! estimate itself.

use crate::design::utility::optimise_in_cone;
use crate::error::{Result, SolverError};
use crate::objective::utility::Utility;
use crate::solution::certificate::Certificate;
use crate::solution::design::DesignStatus;
use pmldesign_model::measures::NotionLevels;
use pmldesign_model::{ColumnCone, Mechanism, Notion, UncertaintySet};
use serde::Serialize;

/// One constraint: `notion` for every prior of `set`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Constraint {
    /// The priors it protects.
    pub set: UncertaintySet,
    /// The notion and its levels.
    pub notion: Notion,
}

/// A certified optimal mechanism under every constraint, read-only: every
/// field is read through its accessor, so what the certificates state stays
/// what was measured.
#[derive(Debug, Clone, Serialize)]
pub struct IntersectionDesign {
    /// The constraints, in the order given.
    constraints: Vec<Constraint>,
    /// How it was obtained.
    status: DesignStatus,
    /// Name of the utility maximised.
    utility_name: String,
    /// Utility under the reference prior of the first constraint's set.
    utility_value: f64,
    /// The mechanism.
    mechanism: Mechanism,
    /// One certificate per constraint (same order), each re-measuring its notion
    /// over its set; all share the utility and its dual bound.
    certificates: Vec<Certificate>,
    /// Extreme rays of the intersection (`Some(0)` when no LP was needed; `None` when not counted).
    rays: Option<u64>,
}

impl IntersectionDesign {
    /// The constraints, in the order given.
    pub fn constraints(&self) -> &[Constraint] {
        &self.constraints
    }

    /// How it was obtained.
    pub fn status(&self) -> DesignStatus {
        self.status
    }

    /// Name of the utility maximised.
    pub fn utility_name(&self) -> &str {
        &self.utility_name
    }

    /// Utility under the reference prior of the first constraint's set.
    pub fn utility_value(&self) -> f64 {
        self.utility_value
    }

    /// The mechanism.
    pub fn mechanism(&self) -> &Mechanism {
        &self.mechanism
    }

    /// One certificate per constraint (same order).
    pub fn certificates(&self) -> &[Certificate] {
        &self.certificates
    }

    /// Extreme rays of the intersection (`Some(0)` when no LP was needed;
    /// `None` when not counted).
    pub fn rays(&self) -> Option<u64> {
        self.rays
    }
}

/// Designs the mechanism maximising `utility` (under the reference prior of the
/// first constraint's set) subject to every constraint, and certifies it.
pub fn design_intersection(
    constraints: &[Constraint],
    utility: &dyn Utility,
    settings: &crate::Settings,
) -> Result<IntersectionDesign> {
    let Some(first) = constraints.first() else {
        return Err(SolverError::Model(pmldesign_model::ModelError::invalid(
            "constraints",
            0,
            "a design needs at least one constraint",
            "give a notion and a set of priors",
        )));
    };
    let reference = first.set.reference();
    let n = reference.len();
    let identity = Mechanism::identity(n);
    let identity_ok = constraints.iter().all(|c| {
        c.set.len() == n
            && NotionLevels::measure_notion(&identity, &c.set, &c.notion).excess(&c.notion) <= 0.0
    });
    let (status, mechanism, upper_bound, rays, converged) = if identity_ok {
        let u = utility.value(&identity, reference.view());
        (DesignStatus::NoPrivacyNeeded, identity, u, Some(0), true)
    } else {
        let cones = constraints
            .iter()
            .map(|c| ColumnCone::for_notion(&c.set, &c.notion))
            .collect::<pmldesign_model::Result<Vec<_>>>()?;
        let cone = ColumnCone::intersection(cones)?;
        let opt = optimise_in_cone(&cone, reference.view(), utility, settings, &mut |_| {})?;
        let m = opt.settled(reference.view());
        let (u, r, c) = (opt.upper_bound, opt.rays, opt.converged);
        (DesignStatus::Optimal, m, u, r, c)
    };
    let utility_value = utility.value(&mechanism, reference.view());
    let certificates = constraints
        .iter()
        .map(|c| {
            Certificate::check_notion_feasible(
                &mechanism,
                &c.set,
                &c.notion,
                utility_value,
                upper_bound,
            )
        })
        .collect::<Result<Vec<_>>>()?;
    let status = match status {
        DesignStatus::NoPrivacyNeeded => status,
        _ => DesignStatus::from_gap(upper_bound - utility_value, utility_value, converged),
    };
    Ok(IntersectionDesign {
        constraints: constraints.to_vec(),
        status,
        utility_name: utility.name(),
        utility_value,
        mechanism,
        certificates,
        rays,
    })
}
