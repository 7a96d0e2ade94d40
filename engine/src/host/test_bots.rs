//! Bots built in the test binary itself, for tests of how the in-process hosts call and time a
//! bot without loading a plugin.

use super::{crash_evidence, thread_cpu_time};
use abi_stable::sabi_trait::TD_Opaque;
use abi_stable::std_types::{ROk, RResult, RSlice, RVec};
use agon_abi::{BotBox, BotFailure, BotObject, BotObject_TO};
use std::time::Duration;

/// Spends `cpu` of its thread's CPU time on every move (spinning, never sleeping), then answers
/// the observation's bytes.
pub fn burner(cpu: Duration) -> BotBox {
    BotObject_TO::from_value(Burner(cpu, None), TD_Opaque)
}

/// A [`burner`] that first moves its thread to CPU `on` (see `crowded_cpu`) at niceness `nice`.
pub fn burner_on(cpu: Duration, on: usize, nice: i32) -> BotBox {
    BotObject_TO::from_value(Burner(cpu, Some((on, nice))), TD_Opaque)
}

struct Burner(Duration, Option<(usize, i32)>);

impl BotObject for Burner {
    fn start(&mut self, _: RSlice<'_, u8>) -> RResult<(), BotFailure> {
        ROk(())
    }

    fn act(&mut self, observation: RSlice<'_, u8>) -> RResult<RVec<u8>, BotFailure> {
        if let Some((cpu, nice)) = self.1 {
            super::crowded_cpu::pin_this_thread(cpu);
            // SAFETY: setpriority with integer arguments, for the calling thread (0).
            unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, nice) };
        }
        let start = thread_cpu_time();
        while thread_cpu_time().saturating_sub(start) < self.0 {
            std::hint::spin_loop();
        }
        ROk(observation.to_vec().into())
    }
}

/// Answers every move with the crash label its call runs under (empty when none).
pub fn label_reader() -> BotBox {
    BotObject_TO::from_value(LabelReader, TD_Opaque)
}

struct LabelReader;

impl BotObject for LabelReader {
    fn start(&mut self, _: RSlice<'_, u8>) -> RResult<(), BotFailure> {
        ROk(())
    }

    fn act(&mut self, _: RSlice<'_, u8>) -> RResult<RVec<u8>, BotFailure> {
        ROk(crash_evidence::label_of_this_thread()
            .unwrap_or_default()
            .into())
    }
}

/// Sleeps `time` on every move, then answers the observation's bytes.
pub fn sleeper(time: Duration) -> BotBox {
    BotObject_TO::from_value(Sleeper(time), TD_Opaque)
}

struct Sleeper(Duration);

impl BotObject for Sleeper {
    fn start(&mut self, _: RSlice<'_, u8>) -> RResult<(), BotFailure> {
        ROk(())
    }

    fn act(&mut self, observation: RSlice<'_, u8>) -> RResult<RVec<u8>, BotFailure> {
        std::thread::sleep(self.0);
        ROk(observation.to_vec().into())
    }
}
