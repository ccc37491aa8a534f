import { describe, expect, it } from 'vitest';
import { addressRange, addressRefusal, hostAllowList, isPublicAddress } from '../../../lib/net/addresses';

describe('lib/net/addresses', () => {
  describe('addressRange', () => {
    it.each([
      ['93.184.215.14', 'unicast'],
      ['2606:4700:4700::1111', 'unicast'],
      ['127.0.0.1', 'loopback'],
      ['127.255.255.254', 'loopback'],
      ['::1', 'loopback'],
      ['10.0.0.1', 'private'],
      ['172.16.0.1', 'private'],
      ['172.31.255.255', 'private'],
      ['192.168.1.1', 'private'],
      ['169.254.169.254', 'linkLocal'],
      ['fe80::1', 'linkLocal'],
      ['fc00::1', 'uniqueLocal'],
      ['fd12:3456::1', 'uniqueLocal'],
      ['100.64.0.1', 'carrierGradeNat'],
      ['0.0.0.0', 'unspecified'],
      ['::', 'unspecified'],
      ['224.0.0.1', 'multicast'],
      ['ff02::1', 'multicast'],
      ['255.255.255.255', 'broadcast'],
      ['240.0.0.1', 'reserved'],
      ['192.0.2.1', 'reserved'],
      // IPv4-mapped IPv6: judged as the IPv4 address it carries.
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:a9fe:a9fe', 'linkLocal'],
      ['::ffff:10.1.2.3', 'private'],
      ['::ffff:93.184.215.14', 'unicast'],
      // The deprecated IPv4-compatible form.
      ['::a00:1', 'reserved'],
      // NAT64 and 6to4 can carry a private IPv4 address.
      ['64:ff9b::a00:1', 'rfc6052'],
      ['2002:a00:1::1', '6to4'],
    ])('%s is %s', (address, range) => {
      expect(addressRange(address)).toBe(range);
      expect(isPublicAddress(address)).toBe(range === 'unicast');
    });
  });

  describe('hostAllowList', () => {
    const list = hostAllowList(
      ['Receiver.Internal', '127.0.0.1', '10.20.0.0/16', '::1', '[fd00::5]'],
      'Notification.AllowedHosts',
    );
    it.each([
      ['receiver.internal', '10.9.9.9', true],
      ['RECEIVER.internal.', '192.168.0.1', true],
      ['other.internal', '127.0.0.1', true],
      ['localhost', '::ffff:127.0.0.1', true],
      ['other.internal', '10.20.3.4', true],
      ['other.internal', '::ffff:10.20.3.4', true],
      ['other.internal', '10.21.0.1', false],
      ['localhost', '127.0.0.2', false],
      ['[::1]', '::1', true],
      ['fd00::5', 'fd00::5', true],
      ['other.internal', 'fd00::6', false],
    ])('%s at %s: %s', (host, address, allowed) => {
      expect(list.allows(host, address)).toBe(allowed);
    });

    describe('names (the hosts a list that is the only way out lets through)', () => {
      const patterns = hostAllowList(
        ['api.example.com', '*.hooks.example.org', '10.20.0.0/16', '[fd00::5]'],
        'Script.ServerScriptHttpClientAllowedHosts',
      );
      it.each([
        ['api.example.com', true],
        ['API.Example.com.', true],
        ['www.example.com', false],
        ['a.hooks.example.org', true],
        ['a.b.hooks.example.org', true],
        ['hooks.example.org', false],
        ['evilhooks.example.org', false],
        ['10.20.3.4', true],
        ['10.21.0.1', false],
        ['[fd00::5]', true],
        ['fd00::6', false],
      ])('%s: %s', (host, named) => {
        expect(patterns.names(host)).toBe(named);
      });

      it('lets a pattern allow no private address: only a named host or a listed address does', () => {
        expect(patterns.allows('a.hooks.example.org', '10.0.0.1')).toBe(false);
        expect(patterns.allows('api.example.com', '10.0.0.1')).toBe(true);
      });

      it.each([
        ['example.com', true],
        ['203.0.113.9', true],
        ['[2001:db8::1]', true],
      ])('with *, names every host: %s', (host, named) => {
        expect(hostAllowList(['*'], 'Script.ServerScriptHttpClientAllowedHosts').names(host)).toBe(named);
      });

      it('with nothing listed, names no host', () => {
        expect(hostAllowList([], 'Script.ServerScriptHttpClientAllowedHosts').names('example.com')).toBe(
          false,
        );
      });
    });
  });

  describe('addressRefusal', () => {
    const none = hostAllowList([], 'Notification.AllowedHosts');
    it('names the host, the address, its range and the setting', () => {
      expect(addressRefusal('metadata.internal', '169.254.169.254', none)).toBe(
        'metadata.internal is 169.254.169.254, a linkLocal address, which Kiroku does not connect to unless Notification.AllowedHosts names it',
      );
    });
    it('lets a public address through', () => {
      expect(addressRefusal('example.com', '93.184.215.14', none)).toBeUndefined();
    });
  });
});
