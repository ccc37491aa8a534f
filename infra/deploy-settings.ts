import { resolve } from 'node:path';
import { loadSettings } from '../lib/config/settings';

/** Where a bundled settings file sits inside a deployed function (Lambda unpacks code to /var/task). */
const BUNDLED_PARAMETERS = '/var/task/parameters.json';
const OVERRIDE_PREFIX = 'KIROKU_PARAM_';

export interface DeploySettingsInput {
  /** The settings file the deploy points at (context `parameters`), if any. */
  readonly parametersFile?: string | undefined;
  /** KIROKU_PARAM_* overrides to forward, usually those of the deploying shell. */
  readonly overrides?: Readonly<Record<string, string>>;
}

export interface DeploySettings {
  /** Environment every function gets: the overrides, and KIROKU_PARAMETERS when a file is bundled. */
  readonly environment: Readonly<Record<string, string>>;
  /** Files to copy into every bundle, by their name there. */
  readonly extraFiles: Readonly<Record<string, string>>;
}

/**
 * The settings a deploy hands to the functions. They are validated here with the functions' own loader,
 * so a bad value fails the synth with the same message a function would log at start-up.
 */
export function deploySettings({ parametersFile, overrides = {} }: DeploySettingsInput): DeploySettings {
  const file = parametersFile === undefined ? undefined : resolve(parametersFile);
  loadSettings({ ...overrides, ...(file === undefined ? {} : { KIROKU_PARAMETERS: file }) });
  if (file === undefined) return { environment: { ...overrides }, extraFiles: {} };
  return {
    environment: { ...overrides, KIROKU_PARAMETERS: BUNDLED_PARAMETERS },
    extraFiles: { 'parameters.json': file },
  };
}

/** The KIROKU_PARAM_* variables of an environment. */
export function settingOverrides(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter(
      (entry): entry is [string, string] => entry[0].startsWith(OVERRIDE_PREFIX) && entry[1] !== undefined,
    ),
  );
}
