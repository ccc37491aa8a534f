import { deleteObjects, getObject, putObject } from '../files/object-store';
import type { PlannedPage } from './plan';

/**
 * A background import's checked pages, kept in the bucket between its start (which checks and plans the
 * whole file) and its page steps (which write them), under `uploads/`, whose lifecycle rule empties what
 * a failed task leaves; a task that ends removes its own.
 */

const keyOf = (taskId: string, index: number) => `uploads/imports/${taskId}/${index}.json`;

export async function stagePage(taskId: string, index: number, page: PlannedPage): Promise<void> {
  await putObject(keyOf(taskId, index), Buffer.from(JSON.stringify(page)), 'application/json');
}

export async function stagedPage(taskId: string, index: number): Promise<PlannedPage> {
  return JSON.parse((await getObject(keyOf(taskId, index))).toString('utf8')) as PlannedPage;
}

export async function dropStaged(taskId: string, pages: number): Promise<void> {
  await deleteObjects(Array.from({ length: pages }, (_, index) => keyOf(taskId, index)));
}
