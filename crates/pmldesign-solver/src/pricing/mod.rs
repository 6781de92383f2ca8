//! The pricing oracles: the ray of largest reduced cost over a cone, for the
//! column-generation engine. Enumerated and structured rays, branch and bound
//! over the ray families, the line metric's walks, the label-loss slices, the
//! exact ball's losses, the quadratic linearisation of a design for
//! estimation, and the choice among them for a cone and a utility.

pub(crate) mod branch_bound;
pub(crate) mod choice;
pub(crate) mod enumerated;
pub(crate) mod exact_ball_loss;
pub(crate) mod exact_mass;
pub(crate) mod labels;
pub(crate) mod line_metric;
pub(crate) mod notion_slices;
pub(crate) mod quadratic;
