import type { InputHTMLAttributes, Ref } from 'react';
import { cn } from '@/lib/cn';

export const controlClass =
  'block w-full rounded-lg border border-slate-300 bg-white px-3 text-base text-slate-900 shadow-sm ' +
  'placeholder:text-slate-500 focus:border-brand-navy focus:outline-none focus:ring-2 focus:ring-brand-navy/40 ' +
  'disabled:cursor-not-allowed disabled:bg-slate-100 aria-invalid:border-red-700 aria-invalid:ring-red-700/30';

export interface InputProps extends InputHTMLAttributes<HTMLInputElement> {
  ref?: Ref<HTMLInputElement>;
}

export function Input({ className, type = 'text', ...props }: InputProps) {
  return <input type={type} className={cn(controlClass, 'h-11', className)} {...props} />;
}
