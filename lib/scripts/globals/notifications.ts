/**
 * `notifications` (CONTRACT 13/14, reference/pleasanter-script-objects.md 5): `New()` a Mail notification,
 * `Get(id)` a copy of the site's (without Token and Disabled; an unknown id fails the script, as the
 * reference's null dereference does), `Send()` keeps a copy of its fields for the host to queue once the
 * run has succeeded. A part of the prelude (lib/scripts/prelude.ts), in its scope.
 */
export const NOTIFICATIONS = `
  const NOTIFICATION_FIELDS = ['Id', 'Type', 'Prefix', 'Address', 'CcAddress', 'BccAddress', 'Token',
    'MethodType', 'Encoding', 'MediaType', 'Headers', 'UseCustomFormat', 'Format', 'Disabled', 'Title', 'Body'];
  const notification = (fields) => {
    const made = { ...fields };
    defineProperty(made, 'Send', {
      value: () => {
        const copy = {};
        for (const name of NOTIFICATION_FIELDS) if (made[name] !== undefined) copy[name] = made[name];
        sends.push(copy);
        return true;
      },
      enumerable: false,
    });
    return made;
  };
  const siteNotifications = isArray(state.notifications) ? state.notifications : [];
  member('notifications', 'New', () => notification({ Type: 1 }));
  member('notifications', 'Get', (id) => {
    const found = siteNotifications.find((entry) => entry.Id === Number(id));
    if (found === undefined) throw new TypeError('notifications.Get: the site has no notification ' + text(id));
    const { Token, Disabled, Subject, Body, ...copied } = found;
    return notification({ ...copied, Title: Subject, Body });
  });
`;
