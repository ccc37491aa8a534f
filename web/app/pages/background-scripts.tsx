import { useState } from 'preact/hooks';
import { describe } from '../api';
import {
  type BackgroundScript,
  type BackgroundState,
  readBackgroundScripts,
  runNow,
  SCHEDULE_TYPES,
  type Schedule,
  type ScriptRun,
  saveBackgroundScripts,
} from '../background-scripts';
import { language, t } from '../i18n';
import { Field, Loading, Notice, useLoad } from './common';
import { ScriptErrorList } from './script-errors';

/**
 * The tenant's background scripts for its privileged users (issue 27): each script with its execution
 * user, options and schedules (the reference's Hourly in 5-minute steps, Daily, Weekly, Monthly, Once, each
 * in a time zone), its next and last run and "Run now" (not for Shared ones); the last failures below.
 */
export function BackgroundScriptsPage() {
  const [loaded, error, reload] = useLoad(readBackgroundScripts, []);
  // Kept here: a save that changes the list (a new script gets its Id) makes a new Editor for it, and
  // the save's message must outlive the old one.
  const [note, setNote] = useState<string>();
  if (error) return <Notice error={error} />;
  if (!loaded) return <Loading />;
  return (
    <Editor
      key={JSON.stringify(loaded.scripts)}
      state={loaded}
      reload={reload}
      note={note}
      setNote={setNote}
    />
  );
}

function Editor({
  state,
  reload,
  note,
  setNote,
}: {
  state: BackgroundState;
  reload: () => void;
  note: string | undefined;
  setNote: (note: string | undefined) => void;
}) {
  const words = t();
  const [scripts, setScripts] = useState<BackgroundScript[]>(state.scripts);
  const [failure, setFailure] = useState<string>();
  const act = async (action: () => Promise<string>) => {
    setNote(undefined);
    setFailure(undefined);
    try {
      setNote(await action());
      reload();
    } catch (problem) {
      setFailure(describe(problem));
    }
  };
  const change = (index: number, fields: Partial<BackgroundScript>) =>
    setScripts(scripts.map((script, at) => (at === index ? { ...script, ...fields } : script)));
  return (
    <>
      <h1>{words.backgroundScripts}</h1>
      <p class="muted">{words.backgroundIntro}</p>
      {!state.enabled && <Notice note={words.backgroundOff} />}
      <form
        class="card"
        onSubmit={(e) => {
          e.preventDefault();
          void act(() => saveBackgroundScripts(scripts));
        }}
      >
        {scripts.map((script, index) => (
          <ScriptForm
            key={script.Id ?? `new-${index}`}
            index={index}
            script={script}
            run={state.runs.find((run) => run.Id === script.Id)}
            change={(fields) => change(index, fields)}
            remove={() => setScripts(scripts.filter((_, at) => at !== index))}
            runNow={script.Id === undefined ? undefined : () => act(() => runNow(script.Id as number))}
          />
        ))}
        <button
          type="button"
          onClick={() => setScripts([...scripts, { Title: '', Body: '', UserId: 0, backgoundSchedules: [] }])}
        >
          {words.addScript}
        </button>
        <Notice error={failure} note={note} />
        <button type="submit" class="primary">
          {words.save}
        </button>
      </form>
      <ScriptErrorList errors={state.errors} />
    </>
  );
}

function ScriptForm(props: {
  index: number;
  script: BackgroundScript;
  run: ScriptRun | undefined;
  change: (fields: Partial<BackgroundScript>) => void;
  remove: () => void;
  runNow: (() => void) | undefined;
}) {
  const words = t();
  const { index, script, run, change } = props;
  const id = (name: string) => `bg-${name}-${index}`;
  const flags = [
    ['Disabled', words.disabled],
    ['Shared', words.sharedScript],
    ['Functionalize', words.functionalize],
    ['TryCatch', words.tryCatch],
  ] as const;
  return (
    <fieldset class="script background-script">
      <legend>{script.Title || script.Name || `#${script.Id ?? index + 1}`}</legend>
      <div class="fields">
        <Field id={id('title')} label={words.title}>
          <input
            id={id('title')}
            value={script.Title ?? ''}
            onInput={(e) => change({ Title: e.currentTarget.value })}
          />
        </Field>
        <Field id={id('name')} label={words.scriptName}>
          <input
            id={id('name')}
            value={script.Name ?? ''}
            onInput={(e) => change({ Name: e.currentTarget.value })}
          />
        </Field>
        <Field id={id('user')} label={words.executionUser}>
          <input
            id={id('user')}
            type="number"
            min={0}
            value={script.UserId || ''}
            onInput={(e) => change({ UserId: Number(e.currentTarget.value) || 0 })}
          />
        </Field>
        <Field id={id('timeout')} label={words.timeOutMs}>
          <input
            id={id('timeout')}
            type="number"
            min={0}
            value={script.TimeOut ?? ''}
            onInput={(e) => change({ TimeOut: Number(e.currentTarget.value) || 0 })}
          />
        </Field>
      </div>
      <Field id={id('body')} label={words.body}>
        <textarea
          id={id('body')}
          class="code"
          rows={6}
          value={script.Body}
          onInput={(e) => change({ Body: e.currentTarget.value })}
        />
      </Field>
      <div class="checks">
        {flags.map(([flag, label]) => (
          <label class="check" key={flag}>
            <input
              type="checkbox"
              checked={script[flag] === true}
              onChange={(e) => change({ [flag]: e.currentTarget.checked })}
            />
            {label}
          </label>
        ))}
      </div>
      {!script.Shared && (
        <Schedules
          list={script.backgoundSchedules}
          prefix={id('schedule')}
          set={(list) => change({ backgoundSchedules: list })}
        />
      )}
      <p class="run-state">
        {words.nextRun}: <strong>{run?.NextRunTime ?? '—'}</strong> · {words.lastRun}:{' '}
        {run?.LastRunTime ? (
          <>
            {run.LastRunTime} <span class={`status status-${run.LastStatus}`}>{run.LastStatus}</span>{' '}
            <span class="reason">{run.LastMessage ?? ''}</span>
          </>
        ) : (
          words.notRun
        )}
      </p>
      <div class="toolbar">
        {props.runNow && !script.Shared && !script.Disabled && (
          <button type="button" onClick={props.runNow}>
            {words.runNow}
          </button>
        )}
        <button type="button" class="link" onClick={props.remove}>
          {words.remove}
        </button>
      </div>
    </fieldset>
  );
}

const DEFAULT_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;
const MINUTES = Array.from({ length: 12 }, (_, step) => String(step * 5));

function Schedules({
  list,
  prefix,
  set,
}: {
  list: Schedule[];
  prefix: string;
  set: (list: Schedule[]) => void;
}) {
  const words = t();
  const change = (index: number, fields: Partial<Schedule>) =>
    set(list.map((schedule, at) => (at === index ? { ...schedule, ...fields } : schedule)));
  return (
    <div class="schedules">
      <h3>{words.schedules}</h3>
      {list.map((schedule, index) => {
        const id = (name: string) => `${prefix}-${index}-${name}`;
        const type = schedule.ScheduleType;
        return (
          <div class="schedule fields" key={schedule.Id ?? `new-${index}`}>
            <Field id={id('type')} label={words.scheduleType}>
              <select
                id={id('type')}
                value={type}
                onChange={(e) =>
                  change(index, { ScheduleType: e.currentTarget.value as Schedule['ScheduleType'] })
                }
              >
                {SCHEDULE_TYPES.map((name) => (
                  <option key={name} value={name}>
                    {words[name]}
                  </option>
                ))}
              </select>
            </Field>
            <Field id={id('zone')} label={words.timeZone}>
              <input
                id={id('zone')}
                value={schedule.ScheduleTimeZoneId ?? ''}
                placeholder={DEFAULT_ZONE}
                onInput={(e) => change(index, { ScheduleTimeZoneId: e.currentTarget.value })}
              />
            </Field>
            {type === 'hourly' && (
              <Field id={id('minute')} label={words.minute}>
                <select
                  id={id('minute')}
                  value={schedule.ScheduleHourlyTime ?? '0'}
                  onChange={(e) => change(index, { ScheduleHourlyTime: e.currentTarget.value })}
                >
                  {MINUTES.map((minute) => (
                    <option key={minute} value={minute}>
                      :{minute.padStart(2, '0')}
                    </option>
                  ))}
                </select>
              </Field>
            )}
            {type !== 'hourly' && type !== 'onlyonce' && (
              <Field id={id('time')} label={words.timeOfDay}>
                <input
                  id={id('time')}
                  type="time"
                  value={String(schedule[timeField(type)] ?? '00:00')}
                  onInput={(e) => change(index, { [timeField(type)]: e.currentTarget.value })}
                />
              </Field>
            )}
            {type === 'weekly' && (
              <NumberChecks
                legend={words.weekdays}
                values={range(1, 7)}
                label={(day) => weekdayName(day)}
                stored={schedule.ScheduleWeeklyWeek}
                set={(text) => change(index, { ScheduleWeeklyWeek: text })}
              />
            )}
            {type === 'monthly' && (
              <>
                <NumberChecks
                  legend={words.months}
                  values={range(1, 12)}
                  label={(month) => monthName(month)}
                  stored={schedule.ScheduleMonthlyMonth}
                  set={(text) => change(index, { ScheduleMonthlyMonth: text })}
                />
                <Field id={id('days')} label={words.monthDays}>
                  <input
                    id={id('days')}
                    inputMode="numeric"
                    placeholder="1, 15, 32"
                    value={listText(schedule.ScheduleMonthlyDay)}
                    onInput={(e) => change(index, { ScheduleMonthlyDay: textList(e.currentTarget.value) })}
                  />
                </Field>
              </>
            )}
            {type === 'onlyonce' && (
              <Field id={id('once')} label={words.onceAt}>
                <input
                  id={id('once')}
                  type="datetime-local"
                  value={(schedule.ScheduleOnlyOnceTime ?? '').replace(' ', 'T').replaceAll('/', '-')}
                  onInput={(e) => change(index, { ScheduleOnlyOnceTime: e.currentTarget.value })}
                />
              </Field>
            )}
            <button type="button" class="link" onClick={() => set(list.filter((_, at) => at !== index))}>
              {words.remove}
            </button>
          </div>
        );
      })}
      <button
        type="button"
        onClick={() => set([...list, { ScheduleType: 'daily', ScheduleDailyTime: '00:00' }])}
      >
        {words.addSchedule}
      </button>
    </div>
  );
}

function NumberChecks(props: {
  legend: string;
  values: number[];
  label: (value: number) => string;
  stored: string | undefined;
  set: (text: string) => void;
}) {
  const chosen = new Set(parseList(props.stored));
  const toggle = (value: number, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(value);
    else next.delete(value);
    props.set(JSON.stringify([...next].sort((a, b) => a - b)));
  };
  return (
    <fieldset class="checks">
      <legend>{props.legend}</legend>
      {props.values.map((value) => (
        <label class="check" key={value}>
          <input
            type="checkbox"
            checked={chosen.has(value)}
            onChange={(e) => toggle(value, e.currentTarget.checked)}
          />
          {props.label(value)}
        </label>
      ))}
    </fieldset>
  );
}

const timeField = (type: Schedule['ScheduleType']) =>
  type === 'weekly' ? 'ScheduleWeeklyTime' : type === 'monthly' ? 'ScheduleMonthlyTime' : 'ScheduleDailyTime';
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, at) => from + at);

function parseList(text: string | undefined): number[] {
  try {
    const list: unknown = JSON.parse(text ?? '[]');
    return Array.isArray(list) ? list.map(Number) : [];
  } catch {
    return [];
  }
}
const listText = (text: string | undefined) => parseList(text).join(', ');
const textList = (text: string) =>
  JSON.stringify(
    text
      .split(/[,\s]+/)
      .filter(Boolean)
      .map(Number),
  );
/** Quartz's day 1 is Sunday: 2023-01-01 was one. */
const weekdayName = (day: number) =>
  new Date(Date.UTC(2023, 0, day)).toLocaleDateString(language(), { weekday: 'short', timeZone: 'UTC' });
const monthName = (month: number) =>
  new Date(Date.UTC(2023, month - 1, 1)).toLocaleDateString(language(), { month: 'short', timeZone: 'UTC' });
