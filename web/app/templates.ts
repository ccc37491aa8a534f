import type { Language } from './i18n';

/**
 * Table designs offered when a site is created: the team's own (not the reference's template texts), in
 * the reference's SiteSettings form (Columns entries holding only what differs from the definitions,
 * EditorColumnHash, GridColumns, Formulas in the reference's tree form), named and labelled in the UI's
 * language. A template is data: createsite stores it as any caller's SiteSettings.
 */

export interface Template {
  readonly id: string;
  readonly referenceType: 'Issues' | 'Results';
  readonly name: Readonly<Record<Language, string>>;
  readonly settings: (language: Language) => Record<string, unknown>;
}

type Texts = Readonly<Record<Language, string>>;
const pick = (language: Language, texts: Texts) => texts[language];
const lines = (...rows: string[]) => rows.join('\n');

/** The version of the reference's SiteSettings form these are written in (EditorColumnHash, not EditorColumns). */
const VERSION = 1.017;

const TASKS: Template = {
  id: 'tasks',
  referenceType: 'Issues',
  name: { en: 'Task list', ja: 'タスク管理' },
  settings: (language) => ({
    Version: VERSION,
    Columns: [
      // The reference's Status texts are Japanese whatever the language; the English list says the same.
      ...(language === 'en'
        ? [
            {
              ColumnName: 'Status',
              ChoicesText: lines(
                '100,Not started,Not,status-new',
                '200,In progress,Prog,status-inprogress',
                '300,In review,Rev,status-review',
                '900,Done,Done,status-closed',
                '910,On hold,Hold,status-rejected',
              ),
            },
          ]
        : []),
      {
        ColumnName: 'ClassA',
        LabelText: pick(language, { en: 'Priority', ja: '優先度' }),
        ChoicesText: pick(language, {
          en: lines('1,High', '2,Normal', '3,Low'),
          ja: lines('1,高', '2,中', '3,低'),
        }),
        DefaultInput: '2',
      },
      { ColumnName: 'Title', LabelText: pick(language, { en: 'Task', ja: 'タスク' }) },
    ],
    EditorColumnHash: {
      General: [
        'IssueId',
        'Ver',
        'Title',
        'Body',
        'ClassA',
        'StartTime',
        'CompletionTime',
        'WorkValue',
        'ProgressRate',
        'Status',
        'Manager',
        'Owner',
        'Comments',
      ],
    },
    GridColumns: [
      'IssueId',
      'Title',
      'ClassA',
      'Status',
      'Owner',
      'CompletionTime',
      'ProgressRate',
      'UpdatedTime',
    ],
  }),
};

const INQUIRIES: Template = {
  id: 'inquiries',
  referenceType: 'Results',
  name: { en: 'Inquiries', ja: '問い合わせ管理' },
  settings: (language) => ({
    Version: VERSION,
    Columns: [
      { ColumnName: 'Title', LabelText: pick(language, { en: 'Subject', ja: '件名' }) },
      { ColumnName: 'Body', LabelText: pick(language, { en: 'Inquiry', ja: '問い合わせ内容' }) },
      {
        ColumnName: 'Status',
        ChoicesText: pick(language, {
          en: lines(
            '100,New,New,status-new',
            '200,Answering,Ans,status-inprogress',
            '300,Waiting for the customer,Wait,status-review',
            '900,Closed,Closed,status-closed',
          ),
          ja: lines(
            '100,受付,受,status-new',
            '200,対応中,対,status-inprogress',
            '300,回答待ち,待,status-review',
            '900,完了,完,status-closed',
          ),
        }),
      },
      {
        ColumnName: 'ClassA',
        LabelText: pick(language, { en: 'Category', ja: '分類' }),
        ChoicesText: pick(language, {
          en: lines('Product', 'Billing', 'Account', 'Other'),
          ja: lines('製品', '請求', 'アカウント', 'その他'),
        }),
        ValidateRequired: true,
      },
      {
        ColumnName: 'ClassB',
        LabelText: pick(language, { en: 'Customer', ja: '顧客名' }),
        ValidateRequired: true,
        MaxLength: 100,
      },
      {
        ColumnName: 'ClassC',
        LabelText: pick(language, { en: 'Email', ja: 'メールアドレス' }),
        ServerRegexValidation: '^[^@\\s]+@[^@\\s]+$',
        RegexValidationMessage: pick(language, {
          en: 'Enter an email address.',
          ja: 'メールアドレスを入力してください。',
        }),
      },
      { ColumnName: 'DescriptionA', LabelText: pick(language, { en: 'Answer', ja: '回答' }) },
    ],
    EditorColumnHash: {
      General: [
        'ResultId',
        'Ver',
        'Title',
        'ClassA',
        'ClassB',
        'ClassC',
        'Body',
        'Status',
        'Manager',
        'DescriptionA',
        'Comments',
      ],
    },
    GridColumns: ['ResultId', 'Title', 'ClassA', 'ClassB', 'Status', 'Manager', 'UpdatedTime'],
  }),
};

const INVENTORY: Template = {
  id: 'inventory',
  referenceType: 'Results',
  name: { en: 'Inventory', ja: '在庫管理' },
  settings: (language) => ({
    Version: VERSION,
    Columns: [
      { ColumnName: 'Title', LabelText: pick(language, { en: 'Item', ja: '品名' }) },
      {
        ColumnName: 'ClassA',
        LabelText: pick(language, { en: 'Item code', ja: '品番' }),
        ValidateRequired: true,
        NoDuplication: true,
        MessageWhenDuplicated: pick(language, {
          en: 'Another item has this code.',
          ja: 'この品番は登録済みです。',
        }),
        MaxLength: 20,
      },
      {
        ColumnName: 'NumA',
        LabelText: pick(language, { en: 'Quantity', ja: '数量' }),
        Unit: pick(language, { en: ' pcs', ja: '個' }),
        Min: 0,
      },
      {
        ColumnName: 'NumB',
        LabelText: pick(language, { en: 'Unit price', ja: '単価' }),
        Unit: pick(language, { en: ' USD', ja: '円' }),
        DecimalPlaces: language === 'en' ? 2 : 0,
        Min: 0,
      },
      {
        ColumnName: 'NumC',
        LabelText: pick(language, { en: 'Stock value', ja: '在庫金額' }),
        Unit: pick(language, { en: ' USD', ja: '円' }),
        DecimalPlaces: language === 'en' ? 2 : 0,
        EditorReadOnly: true,
      },
      { ColumnName: 'ClassB', LabelText: pick(language, { en: 'Location', ja: '保管場所' }) },
    ],
    Formulas: [
      {
        Id: 1,
        Target: 'NumC',
        // NumA × NumB: OperatorType 3 is Multiplication in the reference's Formula tree.
        Formula: {
          OperatorType: 0,
          Children: [
            { ColumnName: 'NumA', OperatorType: 0 },
            { ColumnName: 'NumB', OperatorType: 3 },
          ],
        },
      },
    ],
    EditorColumnHash: {
      General: ['ResultId', 'Ver', 'ClassA', 'Title', 'NumA', 'NumB', 'NumC', 'ClassB', 'Body', 'Comments'],
    },
    GridColumns: ['ResultId', 'ClassA', 'Title', 'NumA', 'NumB', 'NumC', 'ClassB', 'UpdatedTime'],
  }),
};

const CONTACTS: Template = {
  id: 'contacts',
  referenceType: 'Results',
  name: { en: 'Contact list', ja: '連絡先' },
  settings: (language) => ({
    Version: VERSION,
    Columns: [
      { ColumnName: 'Title', LabelText: pick(language, { en: 'Name', ja: '氏名' }) },
      { ColumnName: 'ClassA', LabelText: pick(language, { en: 'Company', ja: '会社名' }) },
      { ColumnName: 'ClassB', LabelText: pick(language, { en: 'Department', ja: '部署' }) },
      {
        ColumnName: 'ClassC',
        LabelText: pick(language, { en: 'Email', ja: 'メールアドレス' }),
        ServerRegexValidation: '^[^@\\s]+@[^@\\s]+$',
        RegexValidationMessage: pick(language, {
          en: 'Enter an email address.',
          ja: 'メールアドレスを入力してください。',
        }),
      },
      { ColumnName: 'ClassD', LabelText: pick(language, { en: 'Phone', ja: '電話番号' }) },
      { ColumnName: 'Body', LabelText: pick(language, { en: 'Notes', ja: 'メモ' }) },
    ],
    EditorColumnHash: {
      General: [
        'ResultId',
        'Ver',
        'Title',
        'ClassA',
        'ClassB',
        'ClassC',
        'ClassD',
        'Body',
        'Owner',
        'Comments',
      ],
    },
    GridColumns: ['ResultId', 'Title', 'ClassA', 'ClassB', 'ClassC', 'ClassD', 'UpdatedTime'],
  }),
};

export const TEMPLATES: readonly Template[] = [TASKS, INQUIRIES, INVENTORY, CONTACTS];

export function templateOf(id: string): Template | undefined {
  return TEMPLATES.find((template) => template.id === id);
}
