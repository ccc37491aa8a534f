/**
 * `users`, `depts` and `groups` (reference/pleasanter-script-objects.md 5), each a host call answered by
 * lib/scripts/calls/people.ts. A dept and a group carry their methods (not enumerable, so the object reads
 * as its fields); the lists they answer are arrays with `Length` and `Count`, as items' lists. A method
 * that takes a user, a dept or a group takes its id or the object itself. A part of the prelude
 * (lib/scripts/prelude.ts), in its scope; a block of its own, so that its names stay its own.
 */
export const PEOPLE = `
  {
    const peopleList = (array) => {
      const length = { get: () => array.length, enumerable: false };
      defineProperty(array, 'Length', length);
      defineProperty(array, 'Count', length);
      return array;
    };
    const idIn = (value, name) =>
      value !== null && typeof value === 'object' ? Number(value[name]) : Number(value);
    const withMethods = (found, methods) => {
      if (found === null) return null;
      for (const name of keys(methods)) defineProperty(found, name, { value: methods[name], enumerable: false });
      return found;
    };
    const dept = (found) =>
      withMethods(found, { GetMembers: () => peopleList(call('depts.GetMembers', found.DeptId)) });
    const group = (found) =>
      withMethods(found, {
        GetMembers: () => peopleList(call('groups.GetMembers', found.GroupId)),
        ContainsUser: (user) => call('groups.ContainsUser', found.GroupId, idIn(user, 'UserId')),
        ContainsDept: (dept) => call('groups.ContainsDept', found.GroupId, idIn(dept, 'DeptId')),
        // Kiroku's groups hold users and depts, never other groups.
        GetChildren: () => peopleList([]),
        ContainsChild: () => false,
      });
    member('users', 'Get', (id) => call('users.Get', Number(id)));
    member('depts', 'Get', (id) => dept(call('depts.Get', Number(id))));
    member('groups', 'Get', (id) => group(call('groups.Get', Number(id))));
    member('groups', 'Update', (id, json) => call('groups.Update', Number(id), json === undefined ? null : json));
  }
`;
