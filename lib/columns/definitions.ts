/**
 * The built-in column definitions per ReferenceType, as data (reference/pleasanter-columns.md 2). A site's
 * `Columns` entries are a diff against these, so they must match the reference's
 * `App_Data/Definitions/Definition_Column/*.json` and `Parameters/ExtendedColumnDefinitions/*.json` exactly:
 * a wrong default here would silently change every stored table design that relies on it.
 */

export type ReferenceType = 'Sites' | 'Issues' | 'Results' | 'Wikis' | 'Dashboards';
export type Language = 'ja' | 'en';

/** What a column holds; drives parsing, display and (later) filtering. */
export type ColumnKind =
  | 'id'
  | 'version'
  | 'text'
  | 'description'
  | 'number'
  | 'date'
  | 'check'
  | 'attachments'
  | 'user'
  | 'status'
  | 'comments'
  /** TitleBody: the grid's title-and-body column, shown and sorted as the title. */
  | 'titleBody';

/** The A–Z families the reference generates for Issues and Results (never for Wikis). */
export type ColumnFamily = 'Class' | 'Num' | 'Date' | 'Description' | 'Check' | 'Attachments';

/**
 * The reference's date format names (App_Data/Displays/{name}Format.json): the editor offers Ymd, Ymdhm and
 * Ymdhms (98 columns of the reference's templates use Ymdhm); the definitions and grids use the ones with
 * the day name (a).
 */
export type DateFormat = 'Ymd' | 'Ymdhm' | 'Ymdhms' | 'Ymda' | 'Ymdahm' | 'Ymdahms';
export const DATE_FORMATS: readonly DateFormat[] = ['Ymd', 'Ymdhm', 'Ymdhms', 'Ymda', 'Ymdahm', 'Ymdahms'];

export interface ColumnDefinition {
  readonly columnName: string;
  readonly kind: ColumnKind;
  readonly family?: ColumnFamily;
  readonly labels: Readonly<Record<Language, string>>;
  /** As the definition files carry it, lines joined by `\n` (the reference reads `\r\n`; both parse alike). */
  readonly choicesText?: string;
  readonly defaultInput?: string;
  readonly editorFormat?: DateFormat;
  readonly gridFormat?: DateFormat;
  readonly decimalPlaces?: number;
  readonly unit?: string;
  /** The storage size in characters (nvarchar(n)); the admin's MaxLength setting is a separate column property. */
  readonly storageLength?: number;
  readonly min?: number;
  readonly max?: number;
  readonly step?: number;
  readonly validateRequired?: boolean;
  readonly editorReadOnly?: boolean;
}

export const LETTERS: readonly string[] = Array.from({ length: 26 }, (_, i) => String.fromCharCode(65 + i));

/** `Issues_Status.json` and `Results_Status.json`; the text is not localized in the reference. */
export const STATUS_CHOICES = [
  '100,未着手,未,status-new',
  '150,準備,準,status-preparation',
  '200,実施中,実,status-inprogress',
  '300,レビュー,レ,status-review',
  '900,完了,完,status-closed',
  '910,保留,留,status-rejected',
].join('\n');

/** Num's DefaultMinValue / DefaultMaxValue, which the reference uses as Min / Max of every NumX. */
const NUM_LIMIT = 999999999999999;

const FAMILY_DEFINITIONS: Readonly<
  Record<
    ColumnFamily,
    Omit<ColumnDefinition, 'columnName' | 'family' | 'labels'> & {
      labels: Readonly<Record<Language, string>>;
    }
  >
> = {
  Class: { kind: 'text', labels: { ja: '分類', en: 'Class' }, storageLength: 1024 },
  Num: {
    kind: 'number',
    labels: { ja: '数値', en: 'Numeric value' },
    min: -NUM_LIMIT,
    max: NUM_LIMIT,
    step: 1,
    decimalPlaces: 0,
  },
  Date: {
    kind: 'date',
    labels: { ja: '日付', en: 'Date' },
    editorFormat: 'Ymd',
    gridFormat: 'Ymda',
    min: -365,
    max: 365,
    step: 1,
  },
  Description: { kind: 'description', labels: { ja: '説明', en: 'Description' } },
  Check: { kind: 'check', labels: { ja: 'チェック', en: 'Check' } },
  Attachments: { kind: 'attachments', labels: { ja: '添付ファイル', en: 'Attachments' } },
};

export const FAMILIES = Object.keys(FAMILY_DEFINITIONS) as ColumnFamily[];

/** ClassA…ClassZ and the other families, generated as `Def.SetExtendedColumnDefinitions` does: label + letter. */
function familyColumns(): ColumnDefinition[] {
  return FAMILIES.flatMap((family) => {
    const { labels, ...rest } = FAMILY_DEFINITIONS[family];
    return LETTERS.map((letter) => ({
      ...rest,
      columnName: `${family}${letter}`,
      family,
      labels: { ja: `${labels.ja}${letter}`, en: `${labels.en}${letter}` },
    }));
  });
}

const label = (ja: string, en: string) => ({ ja, en });

const ID = (columnName: string): ColumnDefinition => ({
  columnName,
  kind: 'id',
  labels: label('ID', 'ID'),
  editorReadOnly: true,
});
const VER: ColumnDefinition = {
  columnName: 'Ver',
  kind: 'version',
  labels: label('バージョン', 'Version'),
  editorReadOnly: true,
};
const TITLE: ColumnDefinition = {
  columnName: 'Title',
  kind: 'text',
  labels: label('タイトル', 'Title'),
  storageLength: 1024,
  validateRequired: true,
};
const BODY: ColumnDefinition = { columnName: 'Body', kind: 'description', labels: label('内容', 'Body') };
/** `_BaseItems_TitleBody`: a grid column only. */
const TITLE_BODY: ColumnDefinition = {
  columnName: 'TitleBody',
  kind: 'titleBody',
  labels: label('タイトル/内容', 'Title/Content'),
};
const STATUS = (validateRequired: boolean): ColumnDefinition => ({
  columnName: 'Status',
  kind: 'status',
  labels: label('状況', 'Status'),
  choicesText: STATUS_CHOICES,
  defaultInput: '100',
  ...(validateRequired ? { validateRequired } : {}),
});
const PERSON = (columnName: string, ja: string, en: string): ColumnDefinition => ({
  columnName,
  kind: 'user',
  labels: label(ja, en),
  choicesText: '[[Users]]',
  defaultInput: '[[Self]]',
});
const LOCKED: ColumnDefinition = { columnName: 'Locked', kind: 'check', labels: label('ロック', 'Locked') };

/** `_Bases_*`: copied into every table that does not define the column itself. */
const BASES: readonly ColumnDefinition[] = [
  { columnName: 'Comments', kind: 'comments', labels: label('コメント', 'Comments') },
  { columnName: 'Creator', kind: 'user', labels: label('作成者', 'Created by'), choicesText: '[[Users]]' },
  { columnName: 'Updator', kind: 'user', labels: label('更新者', 'Updated by'), choicesText: '[[Users]]' },
  {
    columnName: 'CreatedTime',
    kind: 'date',
    labels: label('作成日時', 'Created on'),
    editorFormat: 'Ymdahms',
    gridFormat: 'Ymdahm',
  },
  {
    columnName: 'UpdatedTime',
    kind: 'date',
    labels: label('更新日時', 'Updated on'),
    editorFormat: 'Ymdahms',
    gridFormat: 'Ymdahm',
  },
];

const ISSUES_ONLY: readonly ColumnDefinition[] = [
  {
    columnName: 'StartTime',
    kind: 'date',
    labels: label('開始', 'Start time'),
    defaultInput: '0',
    editorFormat: 'Ymd',
    gridFormat: 'Ymda',
    min: -365,
    max: 365,
    step: 1,
  },
  {
    columnName: 'CompletionTime',
    kind: 'date',
    labels: label('完了', 'Completion'),
    defaultInput: '7',
    editorFormat: 'Ymd',
    gridFormat: 'Ymda',
    min: -365,
    max: 365,
    step: 1,
    validateRequired: true,
  },
  {
    columnName: 'WorkValue',
    kind: 'number',
    labels: label('作業量', 'Work volume'),
    min: 0,
    max: 100,
    step: 0.1,
    decimalPlaces: 1,
    unit: 'h',
  },
  {
    columnName: 'ProgressRate',
    kind: 'number',
    labels: label('進捗率', 'Progression rate'),
    min: 0,
    max: 100,
    step: 0.1,
    decimalPlaces: 1,
    unit: '%',
  },
  {
    columnName: 'RemainingWorkValue',
    kind: 'number',
    labels: label('残作業量', 'Remaining work volume'),
    decimalPlaces: 1,
    unit: 'h',
  },
];

const DEFINITIONS: Readonly<Record<ReferenceType, readonly ColumnDefinition[]>> = {
  Sites: [],
  Dashboards: [],
  Issues: [
    ID('IssueId'),
    VER,
    TITLE,
    BODY,
    ...ISSUES_ONLY,
    STATUS(true),
    PERSON('Manager', '管理者', 'Manager'),
    PERSON('Owner', '担当者', 'Owner'),
    LOCKED,
    ...familyColumns(),
    TITLE_BODY,
    ...BASES,
  ],
  Results: [
    ID('ResultId'),
    VER,
    TITLE,
    BODY,
    STATUS(false),
    PERSON('Manager', '管理者', 'Manager'),
    PERSON('Owner', '担当者', 'Owner'),
    LOCKED,
    ...familyColumns(),
    TITLE_BODY,
    ...BASES,
  ],
  Wikis: [ID('WikiId'), VER, TITLE, BODY, LOCKED, TITLE_BODY, ...BASES],
};

/** The definitions of a ReferenceType, in the reference's column order. */
export function definitionsOf(referenceType: ReferenceType): readonly ColumnDefinition[] {
  return DEFINITIONS[referenceType];
}

export function isReferenceType(value: unknown): value is ReferenceType {
  return typeof value === 'string' && Object.hasOwn(DEFINITIONS, value);
}
