//! `bounds`: the planning questions of designs from samples (\[E\] eqs. (7)-(8),
//! Theorem 2, Corollary 3; docs/theory.md §6), each answered with what it was
//! computed from, the figures beside it and what it means.

use crate::json::versioned;
use pmldesign_model::sample::{self, RadiusMethod, SampleGuarantee, SamplePlan};
use pmldesign_model::{ModelError, Prior};
use serde_json::{Map, Value, json};

/// One named value of an answer: its JSON key, its label in a table, its value.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// The JSON key.
    pub key: &'static str,
    /// The label in a table.
    pub label: &'static str,
    /// The value.
    pub value: Value,
}

fn item(key: &'static str, label: &'static str, value: Value) -> Item {
    Item { key, label, value }
}

/// Where the radius of [`Question::EpsilonPrime`] comes from.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq)]
pub enum RadiusFrom {
    /// Given.
    Beta(f64),
    /// The distribution-free radius of eq. (7) from m samples at delta.
    Samples {
        /// The sample size m.
        samples: u64,
        /// The failure probability.
        delta: f64,
        /// The alphabet size N.
        alphabet: usize,
    },
}

/// One planning question with its arguments.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Question {
    /// `beta*(delta)` of eq. (7), or with `kappa_of` the Theorem 2 radius with
    /// phi(kappa) of that estimate.
    Radius {
        /// The sample size m.
        samples: u64,
        /// The failure probability.
        delta: f64,
        /// The alphabet size N.
        alphabet: usize,
        /// The estimate whose kappa stands in for the true prior's.
        kappa_of: Option<Prior>,
        /// Whether m is the estimate's own sample size (said among the inputs).
        samples_from_estimate: bool,
    },
    /// Theorem 2: `P(||p - p^||_1 >= beta)`, with phi(kappa) of `kappa_of` or
    /// the distribution-free phi(1/2) = 2.
    FailureProbability {
        /// The sample size m.
        samples: u64,
        /// The radius.
        beta: f64,
        /// The alphabet size N.
        alphabet: usize,
        /// The estimate whose kappa stands in for the true prior's.
        kappa_of: Option<Prior>,
    },
    /// eq. (8): the leakage for every prior within the radius of the estimate.
    EpsilonPrime {
        /// The design's level for the estimate.
        epsilon: f64,
        /// The radius.
        radius: RadiusFrom,
    },
    /// Corollary 3: the failure probability of an eps'-PML guarantee.
    DeltaMin {
        /// The design's level.
        epsilon: f64,
        /// The target level for the true prior.
        epsilon_prime: f64,
        /// The sample size m.
        samples: u64,
        /// The alphabet size N.
        alphabet: usize,
    },
    /// Corollary 3 solved for m.
    Samples {
        /// The design's level.
        epsilon: f64,
        /// The target level for the true prior.
        epsilon_prime: f64,
        /// The failure probability.
        delta: f64,
        /// The alphabet size N.
        alphabet: usize,
    },
    /// eqs. (7), (8) inverted: the largest design eps for a target eps'.
    MaxEpsilon {
        /// The target level for the true prior.
        epsilon_prime: f64,
        /// The sample size m.
        samples: u64,
        /// The failure probability.
        delta: f64,
        /// The alphabet size N.
        alphabet: usize,
    },
}

/// The answer to one planning question, as `pml bounds` and Python's
/// `pmldesign.bounds` answer it.
#[derive(Debug, Clone, PartialEq)]
pub struct BoundsAnswer {
    question: &'static str,
    title: &'static str,
    formula: &'static str,
    inputs: Vec<Item>,
    answer: Item,
    related: Vec<Item>,
    statement: String,
    notes: Vec<String>,
}

/// What the radius of `radius` means.
const RADIUS_STATEMENT: &str = "with probability at least 1 - delta over the m samples, the true prior lies within this l1 distance of the empirical estimate";

impl BoundsAnswer {
    /// Answers `q`; an argument out of its domain is refused naming the
    /// library's argument (`m`, `n`, `delta`, `eps`, `eps_prime`, `beta`).
    pub fn new(q: &Question) -> Result<Self, ModelError> {
        match q {
            Question::Radius { .. } => radius(q),
            Question::FailureProbability {
                samples,
                beta,
                alphabet,
                kappa_of,
            } => failure(*samples, *beta, *alphabet, kappa_of.as_ref()),
            Question::EpsilonPrime { epsilon, radius } => epsilon_prime(*epsilon, radius),
            Question::DeltaMin {
                epsilon,
                epsilon_prime,
                samples,
                alphabet,
            } => delta_min(*epsilon, *epsilon_prime, *samples, *alphabet),
            Question::Samples {
                epsilon,
                epsilon_prime,
                delta,
                alphabet,
            } => samples(*epsilon, *epsilon_prime, *delta, *alphabet),
            Question::MaxEpsilon {
                epsilon_prime,
                samples,
                delta,
                alphabet,
            } => max_epsilon(*epsilon_prime, *samples, *delta, *alphabet),
        }
    }

    /// The question's name, as the subcommand (`radius`, `failure-probability`, ...).
    pub fn question(&self) -> &'static str {
        self.question
    }

    /// The question in words.
    pub fn title(&self) -> &'static str {
        self.title
    }

    /// Where in the papers the answer comes from.
    pub fn formula(&self) -> &'static str {
        self.formula
    }

    /// What the answer was computed from.
    pub fn inputs(&self) -> &[Item] {
        &self.inputs
    }

    /// The answer.
    pub fn answer(&self) -> &Item {
        &self.answer
    }

    /// The figures beside it.
    pub fn related(&self) -> &[Item] {
        &self.related
    }

    /// What the answer means, in words.
    pub fn statement(&self) -> &str {
        &self.statement
    }

    /// Notes: plug-in values, vacuous bounds.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// The answer as JSON, `format_version` first.
    pub fn to_json(&self) -> Value {
        versioned(json!({
            "question": self.question,
            "formula": self.formula,
            "inputs": object(&self.inputs),
            "answer": { "name": self.answer.key, "value": self.answer.value },
            "related": object(&self.related),
            "statement": self.statement,
            "notes": self.notes,
        }))
    }
}

fn object(items: &[Item]) -> Value {
    Value::Object(
        items
            .iter()
            .map(|i| (i.key.to_string(), i.value.clone()))
            .collect::<Map<_, _>>(),
    )
}

/// The notes on the plug-in kappa of an estimate with `n` categories.
fn kappa_notes(n: usize, notes: &mut Vec<String>) {
    notes.push(
        "Theorem 2 needs kappa of the unknown true prior; this uses the estimate's kappa in its place (a plug-in value, not a guarantee); the distribution-free radius of eq. (7) holds for every prior".into(),
    );
    if n > sample::KAPPA_EXACT_MAX_N {
        notes.push(format!(
            "N = {n} > {}: kappa is not computed exactly; the conservative kappa = 1/2 is used, so this equals eq. (7)",
            sample::KAPPA_EXACT_MAX_N
        ));
    }
}

fn radius(q: &Question) -> Result<BoundsAnswer, ModelError> {
    let Question::Radius {
        samples: m,
        delta,
        alphabet: n,
        kappa_of,
        samples_from_estimate,
    } = q
    else {
        unreachable!("radius answers Question::Radius")
    };
    let free = sample::radius_free(*m, *delta, *n)?;
    let mut inputs = vec![
        item("samples", "samples m", json!(m)),
        item("delta", "failure probability delta", json!(delta)),
        item("alphabet", "alphabet size N", json!(n)),
    ];
    if *samples_from_estimate {
        inputs.push(item(
            "samples_from",
            "samples from",
            json!("the counts/data of the estimate"),
        ));
    }
    let Some(est) = kappa_of else {
        return Ok(BoundsAnswer {
            question: "radius",
            title: "distribution-free l1 radius beta*(delta)",
            formula: "[E] eq. (7)",
            inputs,
            answer: item("beta", "radius beta*(delta)", json!(free)),
            related: vec![],
            statement: RADIUS_STATEMENT.into(),
            notes: vec![],
        });
    };
    let beta = RadiusMethod::Kappa.radius(*m, *delta, est)?;
    let kappa = sample::kappa(est);
    let phi = sample::phi(kappa)?;
    inputs.push(item(
        "estimate",
        "estimate p^",
        json!(est.masses().to_vec()),
    ));
    let mut notes = vec![];
    kappa_notes(est.len(), &mut notes);
    Ok(BoundsAnswer {
        question: "radius",
        title: "Theorem 2 l1 radius with phi(kappa) of the estimate",
        formula: "[E] Theorem 2",
        inputs,
        answer: item("beta", "radius beta (Theorem 2)", json!(beta)),
        related: vec![
            item("kappa", "kappa of the estimate", json!(kappa)),
            item("phi", "phi(kappa)", json!(phi)),
            item(
                "beta_distribution_free",
                "beta*(delta), eq. (7)",
                json!(free),
            ),
        ],
        statement: format!("{RADIUS_STATEMENT} (if the true prior's kappa is the estimate's)"),
        notes,
    })
}

fn failure(
    m: u64,
    beta: f64,
    n: usize,
    kappa_of: Option<&Prior>,
) -> Result<BoundsAnswer, ModelError> {
    let mut inputs = vec![
        item("beta", "l1 radius beta", json!(beta)),
        item("samples", "samples m", json!(m)),
        item("alphabet", "alphabet size N", json!(n)),
    ];
    let mut related = vec![];
    let mut notes = vec![];
    let method = match kappa_of {
        Some(est) => {
            inputs.push(item(
                "estimate",
                "estimate p^",
                json!(est.masses().to_vec()),
            ));
            related.push(item(
                "kappa",
                "kappa of the estimate",
                json!(sample::kappa(est)),
            ));
            kappa_notes(n, &mut notes);
            RadiusMethod::Kappa
        }
        None => RadiusMethod::DistributionFree,
    };
    let phi = method.phi(kappa_of)?;
    related.push(item("phi", "phi(kappa)", json!(phi)));
    let delta = sample::failure_probability(m, beta, n, phi)?;
    if delta >= 1.0 {
        notes
            .push("the bound is vacuous (capped at 1): use more samples or a larger radius".into());
    }
    Ok(BoundsAnswer {
        question: "failure-probability",
        title: "probability that the true prior is outside the l1 ball",
        formula: "[E] Theorem 2",
        inputs,
        answer: item("delta", "failure probability delta", json!(delta)),
        related,
        statement: "P(||p - p^||_1 >= beta) is at most delta over the m samples".into(),
        notes,
    })
}

fn epsilon_prime(eps: f64, radius: &RadiusFrom) -> Result<BoundsAnswer, ModelError> {
    let mut inputs = vec![item("epsilon", "design eps (for the estimate)", json!(eps))];
    let mut related = vec![];
    let (beta, formula, statement) = match *radius {
        RadiusFrom::Beta(beta) => {
            inputs.push(item("beta", "l1 radius beta", json!(beta)));
            let said = "a mechanism designed eps-PML for the estimate is eps'-PML for every prior within l1 distance beta of it";
            (beta, "[E] eq. (8)", said)
        }
        RadiusFrom::Samples {
            samples: m,
            delta,
            alphabet: n,
        } => {
            inputs.push(item("samples", "samples m", json!(m)));
            inputs.push(item("delta", "failure probability delta", json!(delta)));
            inputs.push(item("alphabet", "alphabet size N", json!(n)));
            let beta = sample::radius_free(m, delta, n)?;
            related.push(item("beta", "radius beta*(delta), eq. (7)", json!(beta)));
            let said = "a mechanism designed eps-PML for the estimate from m samples is eps'-PML for the true prior with probability at least 1 - delta";
            (beta, "[E] eqs. (7), (8)", said)
        }
    };
    let eps_prime = sample::epsilon_prime(eps, beta)?;
    Ok(BoundsAnswer {
        question: "epsilon-prime",
        title: "leakage bound eps' for the true prior",
        formula,
        inputs,
        answer: item("epsilon_prime", "eps'", json!(eps_prime)),
        related,
        statement: statement.into(),
        notes: vec![],
    })
}

fn delta_min(eps: f64, eps_prime: f64, m: u64, n: usize) -> Result<BoundsAnswer, ModelError> {
    let delta = sample::delta_min(eps, eps_prime, m, n)?;
    let mut notes = vec![];
    if delta >= 1.0 {
        notes.push(
            "the bound is vacuous (capped at 1): use more samples or allow a larger eps'; `pml bounds samples` gives the sample size for a target delta".into(),
        );
    }
    Ok(BoundsAnswer {
        question: "delta-min",
        title: "failure probability of an eps'-PML guarantee",
        formula: "[E] Corollary 3",
        inputs: vec![
            item("epsilon", "design eps (for the estimate)", json!(eps)),
            item("epsilon_prime", "target eps' (true prior)", json!(eps_prime)),
            item("samples", "samples m", json!(m)),
            item("alphabet", "alphabet size N", json!(n)),
        ],
        answer: item("delta_min", "delta_min(eps')", json!(delta)),
        related: vec![],
        statement: "a mechanism designed eps-PML for the estimate from m samples is eps'-PML for the true prior except with probability at most delta_min".into(),
        notes,
    })
}

fn samples(eps: f64, eps_prime: f64, delta: f64, n: usize) -> Result<BoundsAnswer, ModelError> {
    let plan = SamplePlan::new(eps, eps_prime, delta, n)?;
    let g = plan.guarantee;
    Ok(BoundsAnswer {
        question: "samples",
        title: "smallest sample size for an (eps', delta) guarantee",
        formula: "[E] Corollary 3 (eqs. (7), (8)) solved for m",
        inputs: vec![
            item("epsilon", "design eps (for the estimate)", json!(eps)),
            item("epsilon_prime", "target eps' (true prior)", json!(eps_prime)),
            item("delta", "failure probability delta", json!(delta)),
            item("alphabet", "alphabet size N", json!(n)),
        ],
        answer: item("samples", "samples m", json!(g.m)),
        related: vec![
            item("delta_min_at_m", "delta_min(eps') at m", json!(plan.delta_min)),
            item("beta_at_m", "radius beta*(delta) at m", json!(g.beta)),
            item("epsilon_prime_at_m", "eps'(delta) at m", json!(g.epsilon_prime)),
        ],
        statement: "with m samples (and not m - 1), a mechanism designed eps-PML for the estimate is eps'-PML for the true prior with probability at least 1 - delta".into(),
        notes: vec![],
    })
}

/// The nearest sample size at which a target eps' can be reached at all (even
/// a design at eps = 0 reaches it), when it is above `m`: the hint of a refused
/// [`Question::MaxEpsilon`].
pub fn nearest_samples(eps_prime: f64, m: u64, delta: f64, n: usize) -> Option<u64> {
    sample::min_samples(0.0, eps_prime, delta, n)
        .ok()
        .filter(|&least| least > m)
}

fn max_epsilon(eps_prime: f64, m: u64, delta: f64, n: usize) -> Result<BoundsAnswer, ModelError> {
    let g = SampleGuarantee::for_target(eps_prime, m, delta, n)?;
    let check = sample::epsilon_prime(g.epsilon, g.beta)?;
    Ok(BoundsAnswer {
        question: "max-epsilon",
        title: "largest design eps for a target eps'",
        formula: "[E] eqs. (7), (8) inverted",
        inputs: vec![
            item("samples", "samples m", json!(m)),
            item("delta", "failure probability delta", json!(delta)),
            item("alphabet", "alphabet size N", json!(n)),
            item("epsilon_prime", "target eps' (true prior)", json!(eps_prime)),
        ],
        answer: item("epsilon", "largest design eps", json!(g.epsilon)),
        related: vec![
            item("beta", "radius beta*(delta), eq. (7)", json!(g.beta)),
            item("epsilon_prime_at_answer", "eps'(delta) at eps", json!(check)),
        ],
        statement: "design eps-PML for the estimate at this eps (or below): the mechanism is then eps'-PML for the true prior with probability at least 1 - delta".into(),
        notes: vec![],
    })
}
