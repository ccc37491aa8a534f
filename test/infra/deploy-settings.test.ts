import { describe, expect, it } from 'vitest';
import { deploySettings, settingOverrides } from '../../infra/deploy-settings';
import { KirokuStack } from '../../infra/kiroku-stack';
import { SettingsError } from '../../lib/config/settings';
import { parametersFile } from '../fixtures/parameters-file';
import { appWithProjectContext } from './synth';

describe('deploySettings', () => {
  it('hands the functions nothing when the deploy names no settings', () => {
    expect(deploySettings({})).toEqual({ environment: {}, extraFiles: {} });
  });

  it('forwards overrides and bundles the settings file, pointing KIROKU_PARAMETERS at its copy', () => {
    const file = parametersFile('{"Session": {"RetentionPeriod": 60}}');
    const overrides = { KIROKU_PARAM_Service_Name: 'Records' };
    expect(deploySettings({ parametersFile: file, overrides })).toEqual({
      environment: { KIROKU_PARAM_Service_Name: 'Records', KIROKU_PARAMETERS: '/var/task/parameters.json' },
      extraFiles: { 'parameters.json': file },
    });
  });

  it.each([
    ['a bad override', {}, { KIROKU_PARAM_Session_RetentionPeriod: '-1' }, /Session\.RetentionPeriod/],
    ['an unknown setting', {}, { KIROKU_PARAM_Session_Nope: '1' }, /unknown setting Nope/],
    ['a bad file', { text: '{"Api": {"LimitPerSite": "many"}}' }, {}, /Api\.LimitPerSite/],
    ['a file that is not JSON', { text: '{' }, {}, /KIROKU_PARAMETERS/],
  ])('fails with the setting named for %s', (_case, file: { text?: string }, overrides, message) => {
    const input = {
      parametersFile: file.text === undefined ? undefined : parametersFile(file.text),
      overrides,
    };
    expect(() => deploySettings(input)).toThrow(message);
    expect(() => deploySettings(input)).toThrow(SettingsError);
  });

  it('stops the stack before anything is bundled', () => {
    const bad = { overrides: { KIROKU_PARAM_Security_AllowIpAddresses: '["not an address"]' } };
    expect(() => new KirokuStack(appWithProjectContext(), 'Bad', { settings: bad })).toThrow(SettingsError);
  });
});

describe('settingOverrides', () => {
  it('keeps only the KIROKU_PARAM_ variables', () => {
    const env = { PATH: '/bin', KIROKU_PARAM_Api_LimitPerSite: '5', KIROKU_PARAMETERS: 'x.json' };
    expect(settingOverrides(env)).toEqual({ KIROKU_PARAM_Api_LimitPerSite: '5' });
  });
});
