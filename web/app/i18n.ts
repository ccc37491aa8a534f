/**
 * The UI's words in English and Japanese (the reference's two main languages). A signed-in user's Language
 * (user settings) decides; a user without one keeps this browser's choice, whose default is the browser's
 * language.
 */

const en = {
  appName: 'Kiroku',
  language: 'Language',
  languageOfBrowser: 'As this browser',
  login: 'Log in',
  loginId: 'Login ID',
  password: 'Password',
  signOut: 'Sign out',
  cookieRefused: 'The browser did not keep the login cookie: allow cookies for this site and log in again.',
  top: 'Top',
  sites: 'Sites',
  settings: 'Settings',
  userSettings: 'User settings',
  siteSettings: 'Site settings',
  create: 'Create',
  save: 'Save',
  delete: 'Delete',
  cancel: 'Cancel',
  rename: 'Rename',
  move: 'Move',
  title: 'Title',
  type: 'Type',
  newSite: 'New site',
  newRecord: 'New record',
  noSites: 'No sites here yet.',
  noRecords: 'No records.',
  search: 'Search',
  filter: 'Filter',
  column: 'Column',
  value: 'Value',
  clear: 'Clear',
  previous: 'Previous',
  next: 'Next',
  page: 'Page',
  of: 'of',
  records: 'records',
  loading: 'Loading…',
  saved: 'Saved.',
  confirmDelete: 'Delete this for good?',
  moveTo: 'New parent site id (0 for the top level)',
  newTitle: 'New title',
  Sites: 'Folder',
  Issues: 'Issue table',
  Results: 'Record table',
  Wikis: 'Wiki',
  Dashboards: 'Dashboard',
  edit: 'Edit',
  attachments: 'Attachments',
  dropFiles: 'Drop files here or choose them',
  chooseFiles: 'Choose files',
  resume: 'Resume',
  left: 'left',
  uploaded: 'Uploaded',
  download: 'Download',
  remove: 'Remove',
  changePassword: 'Change password',
  newPassword: 'New password',
  apiKey: 'API key',
  createApiKey: 'Create an API key',
  deleteApiKey: 'Delete the API key',
  apiKeyShownOnce: 'Copy it now: it is shown only once.',
  hasApiKey: 'You have an API key.',
  noApiKey: 'You have no API key.',
  siteName: 'Site name',
  siteGroupName: 'Site group name',
  permissions: 'Permissions',
  addPermission: 'Add a permission',
  kind: 'Kind',
  id: 'Id',
  bits: 'Flags',
  serverScripts: 'Server scripts',
  browserScripts: 'Browser scripts',
  commandButtons: 'Command buttons',
  label: 'Label',
  queryString: 'Query string',
  body: 'Body',
  add: 'Add',
  attachmentLimits: 'Attachment limits',
  limitQuantity: 'Files at most',
  limitSize: 'Size of a file at most (MB)',
  limitTotal: 'Total size at most (MB)',
  status: 'Status',
  manager: 'Manager',
  owner: 'Owner',
  startTime: 'Start',
  completionTime: 'Completion',
  workValue: 'Work value',
  progressRate: 'Progress rate',
  locked: 'Locked',
  comments: 'Comment',
  updated: 'Updated',
  pasteImage: 'Paste or drop an image to embed it',
  notFound: 'Nothing here.',
  enabled: 'Enabled',
  everyone: 'Every user',
  nobody: '(none)',
} as const;

export type Words = { readonly [K in keyof typeof en]: string };

const ja: Words = {
  appName: 'Kiroku',
  language: '言語',
  languageOfBrowser: 'このブラウザに従う',
  login: 'ログイン',
  loginId: 'ログインID',
  password: 'パスワード',
  signOut: 'ログアウト',
  cookieRefused:
    'ブラウザがログインのCookieを保存しませんでした。このサイトのCookieを許可して、もう一度ログインしてください。',
  top: 'トップ',
  sites: 'サイト',
  settings: '設定',
  userSettings: 'ユーザ設定',
  siteSettings: 'サイトの管理',
  create: '作成',
  save: '保存',
  delete: '削除',
  cancel: 'キャンセル',
  rename: '名前の変更',
  move: '移動',
  title: 'タイトル',
  type: '種類',
  newSite: '新規サイト',
  newRecord: '新規作成',
  noSites: 'サイトはまだありません。',
  noRecords: 'レコードがありません。',
  search: '検索',
  filter: 'フィルタ',
  column: '項目',
  value: '値',
  clear: 'クリア',
  previous: '前へ',
  next: '次へ',
  page: 'ページ',
  of: '/',
  records: '件',
  loading: '読み込み中…',
  saved: '保存しました。',
  confirmDelete: '完全に削除しますか？',
  moveTo: '移動先の親サイトID（トップは0）',
  newTitle: '新しいタイトル',
  Sites: 'フォルダ',
  Issues: '期限付きテーブル',
  Results: '記録テーブル',
  Wikis: 'Wiki',
  Dashboards: 'ダッシュボード',
  edit: '編集',
  attachments: '添付ファイル',
  dropFiles: 'ここにファイルをドロップするか選択してください',
  chooseFiles: 'ファイルを選択',
  resume: '再開',
  left: '残り',
  uploaded: 'アップロード済み',
  download: 'ダウンロード',
  remove: '削除',
  changePassword: 'パスワードの変更',
  newPassword: '新しいパスワード',
  apiKey: 'APIキー',
  createApiKey: 'APIキーを作成',
  deleteApiKey: 'APIキーを削除',
  apiKeyShownOnce: '今すぐコピーしてください。一度だけ表示されます。',
  hasApiKey: 'APIキーがあります。',
  noApiKey: 'APIキーはありません。',
  siteName: 'サイト名',
  siteGroupName: 'サイトグループ名',
  permissions: 'アクセス制御',
  addPermission: '権限を追加',
  kind: '種別',
  id: 'ID',
  bits: '権限',
  serverScripts: 'サーバスクリプト',
  browserScripts: 'スクリプト',
  commandButtons: 'コマンドボタン',
  label: 'ラベル',
  queryString: 'クエリ文字列',
  body: '内容',
  add: '追加',
  attachmentLimits: '添付ファイルの制限',
  limitQuantity: '最大ファイル数',
  limitSize: '1ファイルの最大サイズ（MB）',
  limitTotal: '合計の最大サイズ（MB）',
  status: '状況',
  manager: '管理者',
  owner: '担当者',
  startTime: '開始',
  completionTime: '完了',
  workValue: '作業量',
  progressRate: '進捗率',
  locked: 'ロック',
  comments: 'コメント',
  updated: '更新日時',
  pasteImage: '画像を貼り付けるかドロップすると埋め込まれます',
  notFound: '見つかりません。',
  enabled: '有効',
  everyone: '全てのユーザ',
  nobody: '（なし）',
};

export type Language = 'en' | 'ja';
const dictionaries: Record<Language, Words> = { en, ja };
const STORAGE_KEY = 'kiroku.language';

function initial(): Language {
  const stored = localStorage.getItem(STORAGE_KEY);
  if (stored === 'en' || stored === 'ja') return stored;
  return navigator.language.toLowerCase().startsWith('ja') ? 'ja' : 'en';
}

let current: Language = initial();
const listeners = new Set<() => void>();

export function language(): Language {
  return current;
}

export function setLanguage(next: Language): void {
  current = next;
  localStorage.setItem(STORAGE_KEY, next);
  document.documentElement.lang = next;
  for (const listener of listeners) listener();
}

/** The signed-in user's Language, when they have one, becomes the UI's (and this browser's) choice. */
export function followUser(userLanguage: string | undefined): void {
  if ((userLanguage === 'en' || userLanguage === 'ja') && userLanguage !== current) setLanguage(userLanguage);
}

export function onLanguage(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current language's words. */
export function t(): Words {
  return dictionaries[current];
}
