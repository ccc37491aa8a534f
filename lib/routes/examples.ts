/**
 * One example request and answer per operation of the OpenAPI document (lib/openapi.ts), by handler. A
 * test parses each with its route's own schemas (test/unit/openapi.test.ts), so an example cannot drift
 * from what the API takes and gives. Redirects show their Location instead of a body.
 */
export interface OperationExample {
  readonly request?: unknown;
  /** The success body; for a redirect, the Location header. */
  readonly answer: unknown;
}

const ApiKey = 'a'.repeat(128);
const time = '2026-01-31T09:00:00';
const stamps = { CreatedTime: time, UpdatedTime: time };
const done = (Id: number, Message: string) => ({ Id, StatusCode: 200, Message });
const paged = (PageSize: number, Data: unknown[]) => ({
  StatusCode: 200,
  Response: { Offset: 0, PageSize, TotalCount: Data.length, Data },
});
const session = { StatusCode: 200, Response: { UserId: 2, Key: 'view', Value: 'compact' } };
const site = {
  SiteId: 10,
  Title: 'Projects',
  ReferenceType: 'Issues',
  SiteName: 'projects',
  ParentId: 0,
  InheritPermission: 10,
  Permissions: ['User,2,31'],
  SiteSettings: {},
};
const record = {
  SiteId: 10,
  IssueId: 11,
  Title: 'First task',
  Status: 100,
  Locked: false,
  Creator: 2,
  Updator: 2,
  Ver: 1,
  ...stamps,
};

const nightlyScript = {
  Id: 1,
  Title: 'Nightly count',
  Name: 'nightly-count',
  UserId: 2,
  Body: "context.Log(items.Get(10).length + ' records');",
  backgoundSchedules: [
    { Id: 1, ScheduleType: 'daily', ScheduleTimeZoneId: 'Asia/Tokyo', ScheduleDailyTime: '02:00' },
  ],
};

export const operationExamples: Readonly<Record<string, OperationExample>> = {
  'sessions-get': { request: { ApiKey, SessionKey: 'view', SavePerUser: true }, answer: session },
  'sessions-set': {
    request: { ApiKey, SessionKey: 'view', SessionValue: 'compact', SavePerUser: true },
    answer: session,
  },
  'sessions-delete': { request: { ApiKey, SessionKey: 'view', SavePerUser: true }, answer: session },
  'tenants-create': {
    request: {
      ApiKey,
      TenantName: 'Branch office',
      AdminLoginId: 'branch-admin',
      AdminPassword: 'a long passphrase',
    },
    answer: { ...done(2, 'The tenant has been created.'), ApiKey: 'b'.repeat(128) },
  },
  'users-create': {
    request: { ApiKey, LoginId: 'tanaka', Name: 'Tanaka', Password: 'a long passphrase', DeptId: 1 },
    answer: done(3, '" Tanaka " has been created.'),
  },
  'users-get': {
    // POST /api/users/get (or /api/users/0/get): the tenant's users; /api/users/3/get: that one.
    request: {
      ApiKey,
      Offset: 0,
      PageSize: 50,
      View: {
        ColumnFilterHash: { Disabled: 'false', DeptId: '[1,2]', LoginId: 'tana' },
        ColumnSorterHash: { LoginId: 'asc' },
      },
    },
    answer: paged(50, [
      {
        ApiVersion: 1.1,
        UserId: 3,
        TenantId: 1,
        LoginId: 'tanaka',
        Name: 'Tanaka',
        TenantManager: false,
        Disabled: false,
        DeptId: 1,
        TimeZone: 'Asia/Tokyo',
        Language: 'ja',
        HasApiKey: true,
        Groups: ['Group,4'],
        ...stamps,
      },
    ]),
  },
  'users-update': {
    request: { ApiKey, Name: 'Tanaka Hanako' },
    answer: done(3, '" Tanaka Hanako " has been updated.'),
  },
  'users-delete': { request: { ApiKey }, answer: done(3, '" Tanaka Hanako " has been deleted.') },
  'users-createapikey': {
    request: { ApiKey },
    answer: { ...done(3, 'The API key has been created.'), ApiKey: 'c'.repeat(128) },
  },
  'users-deleteapikey': { request: { ApiKey }, answer: done(3, 'The API key has been deleted.') },
  'groups-create': {
    request: { ApiKey, GroupName: 'Sales', Members: ['User,3', 'Dept,1'] },
    answer: done(4, '" Sales " has been created.'),
  },
  'groups-get': {
    request: {
      ApiKey,
      View: {
        ColumnFilterHash: { GroupName: '["Sales","Support"]' },
        ColumnFilterSearchTypes: { GroupName: 'ExactMatchMultiple' },
      },
    },
    answer: paged(200, [
      {
        ApiVersion: 1.1,
        GroupId: 4,
        TenantId: 1,
        GroupName: 'Sales',
        Members: ['User,3', 'Dept,1'],
        GroupMembers: ['User,3,False', 'Dept,1,False'],
        ...stamps,
      },
    ]),
  },
  'groups-update': {
    request: { ApiKey, Members: ['User,3'] },
    answer: done(4, '" Sales " has been updated.'),
  },
  'groups-delete': { request: { ApiKey }, answer: done(4, '" Sales " has been deleted.') },
  'depts-create': {
    request: { ApiKey, DeptCode: 'S1', DeptName: 'Sales' },
    answer: done(1, '" Sales " has been created.'),
  },
  'depts-get': {
    request: { ApiKey, PageSize: 20, View: { ColumnFilterHash: { Disabled: 'false', DeptCode: 'S' } } },
    answer: paged(20, [
      {
        ApiVersion: 1.1,
        DeptId: 1,
        TenantId: 1,
        DeptCode: 'S1',
        DeptName: 'Sales',
        Disabled: false,
        ...stamps,
      },
    ]),
  },
  'depts-update': {
    request: { ApiKey, DeptName: 'Sales (east)' },
    answer: done(1, '" Sales (east) " has been updated.'),
  },
  'depts-delete': { request: { ApiKey }, answer: done(1, '" Sales (east) " has been deleted.') },
  'items-createsite': {
    request: { ApiKey, Title: 'Projects', ReferenceType: 'Issues', SiteName: 'projects' },
    answer: done(10, '" Projects " has been created.'),
  },
  'items-getsite': {
    request: { ApiKey },
    answer: {
      StatusCode: 200,
      Response: { Data: { ...site, TenantId: 1, Creator: 2, Updator: 2, Ver: 1, ...stamps } },
    },
  },
  'items-childsites': {
    request: { ApiKey },
    answer: {
      StatusCode: 200,
      Response: {
        Data: [
          {
            SiteId: 3,
            ParentId: 0,
            Title: 'Tasks',
            ReferenceType: 'Issues',
            SiteName: 'tasks',
            Permission: 511,
          },
        ],
      },
    },
  },
  'binaries-upload-status': {
    request: { ApiKey, id: 3, FileName: 'report.pdf' },
    answer: { StatusCode: 200, Response: { Received: 8388608, Total: 20971520 } },
  },
  'web-page': { answer: '<!doctype html><html lang="en">…</html>' },
  'web-asset': { answer: 'export function …' },
  'items-bulkdelete': {
    request: { ApiKey, View: { ColumnFilterHash: { Status: '["910"]' } } },
    answer: done(11, 'Tasks: 3 items have been deleted at once.'),
  },
  'items-upsert': {
    request: { ApiKey, Keys: ['ClassA'], Title: 'Order 7', ClassHash: { ClassA: 'A-7' } },
    answer: done(12, '" Order 7 " has been updated.'),
  },
  'items-bulkupsert': {
    request: {
      ApiKey,
      Keys: ['ClassA'],
      Data: [
        { Title: 'Order 7', ClassHash: { ClassA: 'A-7' } },
        { Title: 'Order 8', ClassHash: { ClassA: 'A-8' } },
      ],
    },
    answer: done(11, 'Tasks: 1 entries have been added and 1 entries updated.'),
  },
  'items-import': {
    request: {
      parameters: JSON.stringify({ ApiKey, Encoding: 'UTF-8', UpdatableImport: true, Key: 'ClassA' }),
      file: 'orders.csv (the bytes, as a form-data file part)',
    },
    answer: done(10, 'Projects: 2 entries have been added and 1 entries updated.'),
  },
  'backgroundtasks-import': {
    request: {
      ApiKey,
      Guid: '0123456789ABCDEF0123456789ABCDEF',
      Encoding: 'Shift-JIS',
      Key: 'ClassA',
      UpdatableImport: true,
    },
    answer: { ...done(10, 'Import started.'), TaskId: '7F3A9C2E' },
  },
  'backgroundtasks-rebuildsearchindexes': {
    request: { ApiKey },
    answer: { ...done(11, 'Search index rebuild started.'), TaskId: '7F3A9C2E' },
  },
  'items-export': {
    request: {
      ApiKey,
      View: { ColumnFilterHash: { Status: '[100]' }, ColumnSorterHash: { Title: 'asc' } },
      Export: {
        Name: 'Open',
        Type: 'csv',
        DelimiterType: 'Comma',
        Columns: [
          { ColumnName: 'IssueId' },
          { ColumnName: 'Title' },
          { ColumnName: 'Status', Type: 'Value' },
        ],
      },
    },
    answer: {
      StatusCode: 200,
      Response: {
        Name: 'Projects_Open_2026_01_31 09_00_00.Csv',
        Content: '"ID","タイトル","状況"\n"11","First task","100"\n',
      },
    },
  },
  'backgroundtasks-export': {
    request: { ApiKey, Encoding: 'Shift-JIS', View: { ColumnFilterHash: { Status: '[100]' } } },
    answer: { ...done(10, 'Export started.'), TaskId: '7F3A9C2E' },
  },
  'binaries-getstream': { request: { ApiKey }, answer: '"ID","タイトル"\n"11","First task"\n' },
  'backgroundtasks-get': {
    request: { ApiKey },
    answer: {
      StatusCode: 200,
      Response: {
        TaskId: '7F3A9C2E',
        Kind: 'RebuildSearchIndexes',
        Status: 'Completed',
        Total: 120,
        Done: 120,
        CreatedTime: time,
        CompletedTime: time,
      },
    },
  },
  search: {
    request: { ApiKey, SearchText: 'invoice Tokyo', PageSize: 20 },
    answer: {
      StatusCode: 200,
      Response: {
        Offset: 0,
        PageSize: 20,
        TotalCount: 1,
        Data: [
          {
            Id: 12,
            SiteId: 11,
            Kind: 'record',
            Title: 'Order 7',
            Excerpt: '… the invoice for Tokyo …',
            UpdatedTime: time,
          },
        ],
      },
    },
  },
  'items-updatesite': {
    request: { ApiKey, Title: 'Projects 2026' },
    answer: done(10, '" Projects 2026 " has been updated.'),
  },
  'items-updatesitesettings': {
    request: {
      ApiKey,
      ServerScripts: [
        {
          Id: 1,
          Title: 'Copy the query',
          Body: "model.ClassA = context.QueryStrings.Data('color');",
          BeforeUpdate: true,
        },
      ],
    },
    answer: done(10, '" Projects 2026 " has been updated.'),
  },
  'items-deletesite': { request: { ApiKey }, answer: done(10, '" Projects 2026 " has been deleted.') },
  'items-exportsitepackage': {
    request: { ApiKey, IncludeData: false },
    answer: {
      StatusCode: 200,
      Response: { Package: { BaseSiteId: 10, PackageTime: time, IncludeData: false, Sites: [site] } },
    },
  },
  'items-importsitepackage': {
    request: { ApiKey, Package: { BaseSiteId: 10, PackageTime: time, IncludeData: false, Sites: [site] } },
    answer: {
      ...done(0, '1 sites have been imported.'),
      Data: [{ OldSiteId: 10, NewSiteId: 20, ReferenceType: 'Issues', Title: 'Projects' }],
    },
  },
  'items-copysitepackage': {
    request: {
      ApiKey,
      TargetSiteId: 20,
      SiteTitle: 'Projects 2027',
      SelectedSites: [{ SiteId: 10, IncludeData: true }],
      IncludeSitePermission: true,
    },
    answer: {
      StatusCode: 200,
      Response: {
        Data: '[{"OldSiteId":10,"NewSiteId":21,"ReferenceType":"Issues","Title":"Projects 2027"}]',
      },
    },
  },
  'users-import': {
    request: { parameters: `{"ApiKey":"${ApiKey}","Encoding":"UTF-8"}`, file: 'LoginId,Name\nhanako,Hanako' },
    answer: done(0, 'Users: 1 entries have been added and 0 entries updated.'),
  },
  'groups-import': {
    request: {
      parameters: `{"ApiKey":"${ApiKey}","Encoding":"Shift-JIS","ReplaceAllGroupMembers":false}`,
      file: 'GroupName,MemberType,MemberKey\nSales,User,hanako',
    },
    answer: done(0, 'Groups: Group 1 added, 0 updated. Group members Added 1 and updated 0.'),
  },
  'depts-import': {
    request: { parameters: `{"ApiKey":"${ApiKey}","Encoding":"UTF-8"}`, file: 'DeptCode,DeptName\nS1,Sales' },
    answer: done(0, 'Depts: 1 entries have been added and 0 entries updated.'),
  },
  'items-create': {
    request: { ApiKey, Title: 'First task', Status: 100, ClassHash: { ClassA: 'Design' } },
    answer: done(11, '" First task " has been created.'),
  },
  'items-get': { request: { ApiKey, Offset: 0, PageSize: 200 }, answer: paged(200, [record]) },
  'items-update': { request: { ApiKey, Status: 900 }, answer: done(11, '" First task " has been updated.') },
  'items-delete': { request: { ApiKey }, answer: done(11, '" First task " has been deleted.') },
  'items-restore': { request: { ApiKey }, answer: done(11, '" 1 " items have been restored.') },
  'items-getclosestsiteid': {
    request: { ApiKey, FindSiteNames: ['projects', 'nowhere'] },
    answer: {
      StatusCode: 200,
      SiteId: 10,
      Data: [
        { SiteName: 'projects', SiteId: 10 },
        { SiteName: 'nowhere', SiteId: -1 },
      ],
    },
  },
  'binaries-upload': {
    request: { file: 'report.pdf (the bytes, as a form-data file part)' },
    answer: done(5, '0123456789abcdef0123456789abcdef'),
  },
  'binaries-guid-upload': {
    request: { file: 'report.pdf (the new bytes, as a form-data file part)' },
    answer: done(5, '0123456789abcdef0123456789abcdef'),
  },
  'binaries-get': {
    request: { ApiKey },
    answer: {
      ...done(5, 'report.pdf has been retrieved.'),
      Response: {
        ReferenceId: 11,
        BinaryType: 'Attachments',
        Base64: 'JVBERi0xLjcK',
        Guid: '0123456789ABCDEF0123456789ABCDEF',
        FileName: 'report.pdf',
        Extension: '.pdf',
        Size: 9,
        ContentType: 'application/pdf',
        Creator: 2,
        Updator: 2,
        ...stamps,
      },
    },
  },
  'binaries-download': {
    answer: 'https://bucket.s3.amazonaws.com/files/1/0123456789ABCDEF0123456789ABCDEF/u1?X-Amz-Expires=60',
  },
  'binaries-show': {
    answer: 'https://bucket.s3.amazonaws.com/files/1/0123456789ABCDEF0123456789ABCDEF/u1?X-Amz-Expires=60',
  },
  'users-authenticate': {
    request: { LoginId: 'tanaka', Password: 'a long passphrase' },
    answer: done(3, 'You have been logged in.'),
  },
  'users-signout': { request: {}, answer: done(0, 'You have been logged out.') },
  'outgoingmails-send': {
    request: {
      ApiKey,
      To: 'Tanaka <tanaka@example.com>, [Group3]',
      Cc: '[User2]',
      Title: '見積書の送付',
      Body: 'Please find the quotation attached.',
      Attachments: [{ Name: 'quotation.pdf', Base64: 'JVBERi0xLjcK', ContentType: 'application/pdf' }],
    },
    answer: done(11, 'Email has been sent.'),
  },
  'mailbox-get': {
    request: { ApiKey, Offset: 0 },
    answer: {
      StatusCode: 200,
      Response: {
        Mails: [
          {
            Id: '20260131000000000-0123456789ab',
            Date: '2026-01-31T00:00:00.000Z',
            From: 'kiroku@localhost',
            To: ['tanaka@example.com'],
            Cc: [],
            Subject: '見積書の送付',
            Text: 'Please find the quotation attached.',
          },
        ],
        TotalCount: 1,
      },
    },
  },
  'notifications-deliveries': {
    request: { ApiKey, Status: 'Retrying' },
    answer: {
      StatusCode: 200,
      Response: {
        Deliveries: [
          {
            DeliveryId: '20260131000000000-0123456789abcdef0123',
            NotificationId: 1,
            RecordId: 11,
            Event: 'Updated',
            Type: 9,
            Target: 'https://hooks.example.com/kiroku',
            Status: 'Retrying',
            Attempts: 2,
            CreatedAt: '2026-01-31T00:00:00.000Z',
            LastAttemptAt: '2026-01-31T00:00:10.412Z',
            NextAttemptAt: '2026-01-31T00:00:40.412Z',
            ResponseStatus: 503,
            Reason: 'HTTP 503: Service Unavailable',
          },
        ],
        Next: '20260131000000000-0123456789abcdef0123',
      },
    },
  },
  'notifications-secret': {
    request: { ApiKey, Rotate: true },
    answer: { StatusCode: 200, Response: { Secret: 'c'.repeat(64), CreatedAt: '2026-01-31T09:00:00.000Z' } },
  },
  'notifications-replay': {
    request: { ApiKey, DeliveryIds: ['20260131000000000-0123456789abcdef0123'] },
    answer: { StatusCode: 200, Response: { Replayed: 1 }, Message: '1 delivery has been queued again.' },
  },
  'backgroundscripts-get': {
    request: { ApiKey },
    answer: {
      StatusCode: 200,
      Response: {
        Enabled: true,
        BackgroundServerScripts: { TenantId: 1, Scripts: [nightlyScript] },
        Runs: [
          {
            Id: 1,
            NextRunTime: '2026-02-01T02:00:00',
            LastRunTime: '2026-01-31T02:00:00',
            LastStatus: 'Succeeded',
          },
        ],
        Errors: [],
      },
    },
  },
  'backgroundscripts-update': {
    request: { ApiKey, BackgroundServerScripts: { Scripts: [nightlyScript] } },
    answer: done(1, 'The background scripts have been updated.'),
  },
  'backgroundscripts-run': {
    request: { ApiKey, Id: 1 },
    answer: done(1, 'The background script will run within a minute.'),
  },
  'items-scripterrors-get': {
    request: { ApiKey },
    answer: {
      StatusCode: 200,
      Response: {
        Errors: [
          {
            Time: time,
            SiteId: 10,
            Condition: 'BeforeUpdate',
            Script: 'check-dates',
            Reason: 'server script "check-dates" (site 10, BeforeUpdate) threw TypeError: x is undefined',
          },
        ],
      },
    },
  },
  openapi: { answer: { openapi: '3.1.0', info: { title: 'Kiroku Web API', version: '1.1' }, paths: {} } },
};
