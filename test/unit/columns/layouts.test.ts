import { describe, expect, it } from 'vitest';
import { definitionsOf, type ReferenceType } from '../../../lib/columns/definitions';
import { defaultEditorColumns, defaultGridColumns } from '../../../lib/columns/layouts';

describe('columns/layouts', () => {
  it.each<[ReferenceType, string]>([
    [
      'Issues',
      'IssueId,TitleBody,Comments,StartTime,CompletionTime,WorkValue,ProgressRate,RemainingWorkValue,Status,Manager,Owner,Updator,UpdatedTime',
    ],
    ['Results', 'ResultId,TitleBody,Comments,Status,Manager,Owner,Updator,UpdatedTime'],
    ['Wikis', 'WikiId,TitleBody,Comments,Updator,UpdatedTime'],
    ['Sites', ''],
  ])('gives %s the reference grid columns', (type, names) => {
    expect(defaultGridColumns(type).join(',')).toBe(names);
  });

  it.each<[ReferenceType, string]>([
    [
      'Issues',
      'IssueId,Ver,Title,Body,StartTime,CompletionTime,WorkValue,ProgressRate,RemainingWorkValue,Status,Manager,Owner,Comments',
    ],
    ['Results', 'ResultId,Ver,Title,Body,Status,Manager,Owner,Comments'],
    ['Wikis', 'WikiId,Ver,Title,Body,Comments'],
    ['Dashboards', ''],
  ])('gives %s the reference editor columns', (type, names) => {
    expect(defaultEditorColumns(type).join(',')).toBe(names);
  });

  it.each<ReferenceType>(['Issues', 'Results', 'Wikis'])('names only defined columns of %s', (type) => {
    const known = new Set(definitionsOf(type).map((definition) => definition.columnName));
    for (const name of [...defaultGridColumns(type), ...defaultEditorColumns(type)])
      expect(known).toContain(name);
  });
});
