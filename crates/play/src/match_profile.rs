//! The match profile: how every game of a mode is played (where bots run, their budgets and
//! clock, what a fault costs, the process host's sandbox). One type for a tournament's TOML
//! (its keys are the plan's `settings`) and for the command line ([`ProfileArgs`], the flag
//! group every command that plays games flattens), with its defaults written once, here, and
//! one place that turns it into the engine's terms.

use agon_engine::Budgets;
use agon_engine::Hosting;
use agon_engine::MatchSettings;
use agon_engine::SandboxConfig;
use agon_engine::SeedSecret;
use agon_engine::{Clock, HostKind, LocateError, ProcessHostConfig};
use agon_games::contract::{FaultPolicy, RawParams};
use clap::{Args, ValueEnum};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Budget per move, in milliseconds.
pub const MOVE_MS: u64 = 1000;
/// Budget for each bot's start call, in milliseconds.
pub const START_MS: u64 = 5000;
/// A process-hosted bot's memory limit, in MiB.
pub const MEMORY_MIB: u64 = 1024;

/// How the games are played. The field names are the tournament configuration's keys and the
/// plan's (its hash covers them, so they keep their names and shapes).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MatchProfile {
    pub host: HostKind,
    pub move_ms: u64,
    pub start_ms: u64,
    /// Tournaments and the command line judge budgets on the bot's own CPU time (with a
    /// wall-clock watchdog): on a loaded machine, wall-clock budgets charge bots for time other
    /// processes took (docs/architecture.md, "Time budgets").
    pub clock: Clock,
    /// None: the game's course rule.
    pub on_fault: Option<FaultPolicy>,
    pub sandbox: SandboxProfile,
}

/// `[sandbox]`: the process host's confinement.
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct SandboxProfile {
    /// Refuse to run a bot that cannot be fully confined.
    #[serde(default)]
    pub strict: bool,
    /// None: [`MEMORY_MIB`].
    pub memory_mb: Option<u64>,
    #[serde(default)]
    pub threads: u32,
    /// Whom the bots run as when the engine is root (see `agon match --sandbox-user`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user: Option<String>,
}

impl Default for MatchProfile {
    fn default() -> MatchProfile {
        MatchProfile {
            host: HostKind::Process,
            move_ms: MOVE_MS,
            start_ms: START_MS,
            clock: Clock::Cpu,
            on_fault: None,
            sandbox: SandboxProfile::default(),
        }
    }
}

impl MatchProfile {
    /// The budgets (0 ms: none).
    pub fn budgets(&self) -> Budgets {
        let nonzero = |ms: u64| (ms > 0).then_some(ms);
        Budgets {
            start_ms: nonzero(self.start_ms),
            move_ms: nonzero(self.move_ms),
            clock: self.clock,
        }
    }

    /// The settings of one game under this profile.
    pub fn match_settings(
        &self,
        params: RawParams,
        seed: u64,
        secret: SeedSecret,
    ) -> MatchSettings {
        MatchSettings {
            params,
            seed,
            seed_secret: secret,
            budgets: self.budgets(),
            fault_policy: self.on_fault,
        }
    }

    /// The process host's sandbox.
    pub fn sandbox_config(&self) -> SandboxConfig {
        let sandbox = &self.sandbox;
        SandboxConfig {
            memory_bytes: sandbox
                .memory_mb
                .unwrap_or(MEMORY_MIB)
                .saturating_mul(1 << 20),
            threads: sandbox.threads,
            strict: sandbox.strict,
            user: sandbox.user.clone(),
            ..SandboxConfig::default()
        }
    }

    /// Process hosts under this profile's sandbox, whatever host the games use (plugins are
    /// inspected and builds validated in them), copying plugins into `cache`.
    pub fn process_hosting(&self, cache: &Path) -> Result<Hosting, LocateError> {
        Ok(Hosting {
            kind: HostKind::Process,
            process: Some(ProcessHostConfig::locate(self.sandbox_config())?),
            cache: cache.to_path_buf(),
        })
    }

    /// The games' hosts.
    pub fn hosting(&self) -> Result<Hosting, LocateError> {
        match self.host {
            HostKind::Process => self.process_hosting(&agon_engine::loader::cache_dir()),
            kind => Ok(Hosting::in_process(kind)),
        }
    }

    /// What a configuration may not ask: a user the bots may not run as, no memory at all.
    pub fn check(&self) -> Result<(), BadSetting> {
        agon_engine::sandbox::check_user(self.sandbox.user.as_deref()).map_err(|refused| {
            BadSetting {
                key: "sandbox.user",
                problem: refused.to_string(),
            }
        })?;
        if self.sandbox.memory_mb == Some(0) {
            return Err(BadSetting {
                key: "sandbox.memory_mb",
                problem: "must be at least 1".into(),
            });
        }
        Ok(())
    }
}

/// A setting a profile may not have: its configuration key, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{key}: {problem}")]
pub struct BadSetting {
    pub key: &'static str,
    pub problem: String,
}

/// A [`BadSetting`] that came from the command line, named by its flag.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("--{}: {}", flag_of(.0.key), .0.problem)]
pub struct BadFlag(pub BadSetting);

/// Where a bot runs, as the command line and a configuration name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum HostChoice {
    /// A sandboxed child process per seat: the default, for team code
    Process,
    /// A worker thread in this process
    Thread,
    /// The match thread itself; trusted code only
    Inline,
}

impl From<HostChoice> for HostKind {
    fn from(choice: HostChoice) -> HostKind {
        match choice {
            HostChoice::Process => HostKind::Process,
            HostChoice::Thread => HostKind::Thread,
            HostChoice::Inline => HostKind::Inline,
        }
    }
}

/// Which clock budgets count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ClockChoice {
    /// The bot's own CPU time, fair on a loaded machine (a wall-clock watchdog at 3x the
    /// budget still bounds every call)
    Cpu,
    /// Elapsed real time
    Wall,
}

impl From<ClockChoice> for Clock {
    fn from(choice: ClockChoice) -> Clock {
        match choice {
            ClockChoice::Cpu => Clock::Cpu,
            ClockChoice::Wall => Clock::Wall,
        }
    }
}

/// How the process host treats confinement the kernel cannot give.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SandboxMode {
    /// Run with whatever confinement the kernel offers and record what is missing
    Report,
    /// Refuse to run a bot that cannot be fully confined
    Strict,
}

/// The match profile's flags, shared by every command that plays games.
#[derive(Args, Clone, Debug)]
pub struct ProfileArgs {
    /// Where each bot runs
    #[arg(long, value_enum, default_value_t = HostChoice::Process, value_name = "HOST")]
    pub host: HostChoice,
    /// Budget per move in milliseconds (0: unlimited)
    #[arg(long, default_value_t = MOVE_MS, value_name = "MS")]
    pub move_ms: u64,
    /// Budget for each bot's start call in milliseconds (0: unlimited)
    #[arg(long, default_value_t = START_MS, value_name = "MS")]
    pub start_ms: u64,
    /// Which clock budgets count
    #[arg(long, value_enum, default_value_t = ClockChoice::Cpu, value_name = "CLOCK")]
    pub clock: ClockChoice,
    /// What a fault costs: forfeit, disqualify, skip, skip-stall[:TURNS], random-legal[:RATE]
    /// (default: the game's course rule, see `agon games`). Under skip, skip-stall and
    /// random-legal a bot whose process died or was killed at a deadline is started again for
    /// its next turn
    #[arg(long, value_name = "POLICY", value_parser = parse_fault_policy)]
    pub on_fault: Option<FaultPolicy>,
    /// Process host: how to treat confinement the kernel cannot give
    #[arg(long, value_enum, default_value_t = SandboxMode::Report, value_name = "MODE")]
    pub sandbox: SandboxMode,
    /// Process host: memory limit per bot in MiB (its cgroup's memory.max where it gets one,
    /// else its address space)
    #[arg(long = "memory-mib", alias = "memory-mb", default_value_t = MEMORY_MIB, value_name = "MIB")]
    pub memory_mb: u64,
    /// Process host: threads a bot may start (0: none; thread creation kills the bot)
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub threads: u32,
    /// Process host, when agon runs as root: whom the bots run as, NAME, UID or UID:GID
    /// (default: the user `agon-bot` where it exists, else nobody). Never root
    #[arg(long, value_name = "USER")]
    pub sandbox_user: Option<String>,
}

fn parse_fault_policy(text: &str) -> Result<FaultPolicy, String> {
    text.parse()
}

impl ProfileArgs {
    /// The profile the flags give, checked as a configuration's is.
    pub fn profile(&self) -> Result<MatchProfile, BadFlag> {
        let profile = MatchProfile {
            host: self.host.into(),
            move_ms: self.move_ms,
            start_ms: self.start_ms,
            clock: self.clock.into(),
            on_fault: self.on_fault,
            sandbox: SandboxProfile {
                strict: self.sandbox == SandboxMode::Strict,
                memory_mb: Some(self.memory_mb),
                threads: self.threads,
                user: self.sandbox_user.clone(),
            },
        };
        profile.check().map_err(BadFlag)?;
        Ok(profile)
    }
}

/// The flag of a configuration key.
fn flag_of(key: &str) -> &'static str {
    match key {
        "sandbox.user" => "sandbox-user",
        _ => "memory-mib",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Flags {
        #[command(flatten)]
        profile: ProfileArgs,
    }

    #[test]
    fn the_flags_defaults_are_the_profiles() {
        let flags = Flags::try_parse_from(["agon"]).unwrap();
        let from_flags = flags.profile.profile().unwrap();
        let default = MatchProfile::default();
        assert_eq!(from_flags.budgets(), default.budgets());
        assert_eq!(from_flags.host, default.host);
        assert_eq!(from_flags.sandbox_config(), default.sandbox_config());
        let flags = Flags::try_parse_from([
            "agon",
            "--host",
            "thread",
            "--clock",
            "wall",
            "--on-fault",
            "skip-stall:3",
            "--sandbox",
            "strict",
            "--memory-mib",
            "64",
            "--move-ms",
            "0",
        ])
        .unwrap();
        let profile = flags.profile.profile().unwrap();
        assert_eq!(profile.host, HostKind::Thread);
        assert_eq!(profile.clock, Clock::Wall);
        assert_eq!(profile.budgets().move_ms, None);
        assert!(profile.sandbox_config().strict);
        assert_eq!(profile.sandbox_config().memory_bytes, 64 << 20);
        assert_eq!(profile.on_fault.unwrap().to_string(), "skip-stall:3");
        let error = Flags::try_parse_from(["agon", "--host", "gpu"])
            .err()
            .unwrap();
        assert!(
            error.to_string().contains("process, thread, inline"),
            "{error}"
        );
    }

    #[test]
    fn a_setting_that_cannot_be_is_named_by_its_key_or_its_flag() {
        let flags = Flags::try_parse_from(["agon", "--memory-mib", "0"]).unwrap();
        let error = flags.profile.profile().unwrap_err();
        assert_eq!(error.0.key, "sandbox.memory_mb");
        assert_eq!(error.to_string(), "--memory-mib: must be at least 1");
        assert_eq!(error.0.to_string(), "sandbox.memory_mb: must be at least 1");
    }
}
