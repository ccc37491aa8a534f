import type * as z from 'zod';
import { now } from '../clock';
import { NotFoundError } from '../errors';
import { messages } from '../messages';
import type { Outcome } from '../results';
import type { Dept } from './model';
import type { Principal } from './principal';
import * as repository from './repository';
import type { deptCreateRequest, deptUpdateRequest } from './schemas';
import { requireManager } from './users';

/**
 * Departments (reference/pleasanter-behaviour.md 7.6): a user belongs to at most one, and `Dept,<id>`
 * permission entries and groups holding the dept reach its users while it is enabled.
 */

export async function createDept(
  principal: Principal,
  input: z.infer<typeof deptCreateRequest>,
): Promise<Outcome> {
  requireManager(principal);
  const time = now();
  const dept: Dept = {
    deptId: await repository.nextId('Dept'),
    tenantId: principal.tenantId,
    deptCode: input.DeptCode ?? '',
    deptName: input.DeptName,
    disabled: input.Disabled ?? false,
    createdAt: time,
    updatedAt: time,
  };
  await repository.saveDept(undefined, dept);
  return { id: dept.deptId, message: messages.created(dept.deptName) };
}

export async function updateDept(
  principal: Principal,
  deptId: number,
  input: z.infer<typeof deptUpdateRequest>,
): Promise<Outcome> {
  requireManager(principal);
  const before = await deptInTenant(principal, deptId);
  const after: Dept = {
    ...before,
    deptCode: input.DeptCode ?? before.deptCode,
    deptName: input.DeptName ?? before.deptName,
    disabled: input.Disabled ?? before.disabled,
    updatedAt: now(),
  };
  await repository.saveDept(before, after);
  return { id: deptId, message: messages.updated(after.deptName) };
}

export async function deleteDept(principal: Principal, deptId: number): Promise<Outcome> {
  requireManager(principal);
  const dept = await deptInTenant(principal, deptId);
  await repository.deleteDept(dept);
  return { id: deptId, message: messages.deleted(dept.deptName) };
}

/** One of the caller's tenant; another tenant's behave as if they did not exist. */
export async function deptInTenant(principal: Principal, deptId: number): Promise<Dept> {
  const dept = await repository.getDept(deptId);
  if (!dept || dept.tenantId !== principal.tenantId)
    throw new NotFoundError(`no dept ${deptId} in tenant ${principal.tenantId}`);
  return dept;
}
