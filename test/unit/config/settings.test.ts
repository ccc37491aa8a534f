import { describe, expect, it } from 'vitest';
import { loadSettings } from '../../../lib/config/settings';
import { parametersFile } from '../../fixtures/parameters-file';

describe('settings', () => {
  describe('loadSettings', () => {
    it('has the contract defaults', () => {
      expect(loadSettings({})).toEqual({
        Service: { Name: 'Kiroku', TimeZoneDefault: 'Asia/Tokyo', DefaultLanguage: 'ja' },
        Security: { MimeTypeCheckOnApi: false, AllowIpAddresses: [], PrivilegedUsers: ['Administrator'] },
        Session: { RetentionPeriod: 1440, UseKeyValueStore: false },
        BackgroundTask: { Enabled: true, CreateSearchIndexLot: 5000 },
        BinaryStorage: { MaxSize: 50, LimitQuantity: 30, LimitSize: 50, LimitTotalSize: 1024 },
        Api: { LimitPerSite: 0 },
        Script: {
          ServerScript: true,
          ServerScriptTimeOut: 10000,
          ServerScriptHttpClientAllowedHosts: [],
          ServerScriptHttpClientTimeOut: 100000,
          ServerScriptHttpClientMaxResponseBytes: 1048576,
        },
        Search: { CreateIndexes: true },
        Notification: { AllowedHosts: [] },
        Mail: { SmtpPort: 25 },
      });
    });

    it('reads the parameters file, then lets KIROKU_PARAM_ variables override it', () => {
      const file = parametersFile('{"Session": {"RetentionPeriod": 60}, "Api": {"LimitPerSite": 5}}');
      const settings = loadSettings({
        KIROKU_PARAMETERS: file,
        KIROKU_PARAM_Session_RetentionPeriod: '1',
        KIROKU_PARAM_Security_AllowIpAddresses: '["127.0.0.1","10.0.0.0/8","::1"]',
        KIROKU_PARAM_Service_Name: 'Records',
      });
      expect(settings.Session.RetentionPeriod).toBe(1);
      expect(settings.Api.LimitPerSite).toBe(5);
      expect(settings.Security.AllowIpAddresses).toEqual(['127.0.0.1', '10.0.0.0/8', '::1']);
      expect(settings.Service.Name).toBe('Records');
    });

    it.each([
      [{ KIROKU_PARAM_Session_RetentionPeriod: 'soon' }, /Session\.RetentionPeriod/],
      [{ KIROKU_PARAM_Session_RetentionPeriod: '-5' }, /Session\.RetentionPeriod/],
      [{ KIROKU_PARAM_Security_MimeTypeCheckOnApi: 'yes' }, /Security\.MimeTypeCheckOnApi/],
      [{ KIROKU_PARAM_Script_ServerScriptHttpClientTimeOut: '-1' }, /Script\.ServerScriptHttpClientTimeOut/],
      [
        { KIROKU_PARAM_Script_ServerScriptHttpClientTimeOut: '86400001' },
        /Script\.ServerScriptHttpClientTimeOut/,
      ],
      [
        { KIROKU_PARAM_Script_ServerScriptHttpClientMaxResponseBytes: '0' },
        /ServerScriptHttpClientMaxResponseBytes/,
      ],
      [
        { KIROKU_PARAM_Script_ServerScriptHttpClientAllowedHosts: 'example.com' },
        /ServerScriptHttpClientAllowedHosts/,
      ],
      [{ KIROKU_PARAM_Security_AllowIpAddresses: '["10.0.0.0/33"]' }, /Security\.AllowIpAddresses\.0/],
      [{ KIROKU_PARAM_Security_AllowIpAddresses: '["localhost"]' }, /Security\.AllowIpAddresses\.0/],
      [{ KIROKU_PARAM_Session_Retention: '5' }, /Session.*unknown setting Retention/],
      [{ KIROKU_PARAM_Nothing_Here: '5' }, /unknown setting Nothing/],
      [{ KIROKU_PARAM_Session: '5' }, /KIROKU_PARAM_Session: expected/],
    ])('stops on a bad value, naming the setting (%o)', (env, message) => {
      expect(() => loadSettings(env)).toThrow(message);
    });

    it('names the parameters file when it is not JSON', () => {
      const file = parametersFile('{ nope');
      expect(() => loadSettings({ KIROKU_PARAMETERS: file })).toThrow(/KIROKU_PARAMETERS/);
    });
  });
});
