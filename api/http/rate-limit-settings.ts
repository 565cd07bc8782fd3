// The rate-limit settings (README "Settings"): OPENCONTRACT_RATE_LIMIT_AGENT, _ADDRESS, _HOST and _UNVERIFIED as
// `<burst>/<per second>`, OPENCONTRACT_SSE_MAX_PER_CALLER, _TOTAL and _PER_PARTY as counts.
// An unset one keeps its default (DEFAULT_RATE_LIMITS); an invalid one throws naming the setting.
import { DEFAULT_RATE_LIMITS, type BucketRule, type RateLimitSettings } from './rate-limit';

export class RateLimitSettingError extends Error {
  constructor(
    readonly setting: string,
    message: string,
  ) {
    super(message);
  }
}

export function bucket(name: string, value: string | undefined, fallback: BucketRule): BucketRule {
  const setting = value?.trim() ?? '';
  if (setting === '') return fallback;
  const match = /^(\d{1,9})\/(\d{1,9}(?:\.\d{1,6})?)$/.exec(setting);
  const burst = Number(match?.[1]);
  const perSecond = Number(match?.[2]);
  if (!match || burst < 1 || perSecond <= 0) {
    throw new RateLimitSettingError(
      name,
      `${name} must be <burst>/<per second>, both positive (e.g. 120/20)`,
    );
  }
  return { burst, perSecond };
}

function count(name: string, value: string | undefined, fallback: number): number {
  const setting = value?.trim() ?? '';
  if (setting === '') return fallback;
  if (!/^\d{1,9}$/.test(setting) || Number(setting) < 1)
    throw new RateLimitSettingError(name, `${name} must be a whole number ≥ 1`);
  return Number(setting);
}

export function parseRateLimits(env: NodeJS.ProcessEnv): RateLimitSettings {
  const d = DEFAULT_RATE_LIMITS;
  return {
    agent: bucket('OPENCONTRACT_RATE_LIMIT_AGENT', env.OPENCONTRACT_RATE_LIMIT_AGENT, d.agent),
    address: bucket('OPENCONTRACT_RATE_LIMIT_ADDRESS', env.OPENCONTRACT_RATE_LIMIT_ADDRESS, d.address),
    host: bucket('OPENCONTRACT_RATE_LIMIT_HOST', env.OPENCONTRACT_RATE_LIMIT_HOST, d.host),
    unverified: bucket(
      'OPENCONTRACT_RATE_LIMIT_UNVERIFIED',
      env.OPENCONTRACT_RATE_LIMIT_UNVERIFIED,
      d.unverified,
    ),
    streamsPerCaller: count(
      'OPENCONTRACT_SSE_MAX_PER_CALLER',
      env.OPENCONTRACT_SSE_MAX_PER_CALLER,
      d.streamsPerCaller,
    ),
    streamsTotal: count('OPENCONTRACT_SSE_MAX_TOTAL', env.OPENCONTRACT_SSE_MAX_TOTAL, d.streamsTotal),
    streamsPerParty: count(
      'OPENCONTRACT_SSE_MAX_PER_PARTY',
      env.OPENCONTRACT_SSE_MAX_PER_PARTY,
      d.streamsPerParty,
    ),
  };
}
