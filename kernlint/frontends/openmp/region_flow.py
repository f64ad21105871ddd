"""Reaching definitions over an OpenMP device region's statements, for its dependence program
(`openmp.dependence`): the front-ends give the statements flat, in source order, and this rebuilds
their nesting from the spans and walks it with the shared `analysis.reaching.Flow`."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from kernlint.analysis import dependence as dep
from kernlint.analysis.names import DefinitionKey, Name, VariantKey, definition_of
from kernlint.analysis.reaching import Flow, Stepper, Steps, drive, source_order
from kernlint.facts import Span
from kernlint.frontends.openmp import expr as ex
from kernlint.frontends.openmp.device_code import RawAssign, RawBranch


class RegionFlow:
    """Reaching definitions over a region's statements, which the front-ends give flat, in source
    order, with the code each conditional guards (`RawBranch.regions`).

    The nesting is rebuilt from the spans. Each arm of a C conditional is a block of its own; a
    Fortran `if` gives one region for all its arms, where a definition is weak (it may not run). A
    definition at the top level of a block replaces the ones before it: so `k = lid` under a branch does not reach the
    `k` of a later `for (k = 0; k < 16; ++k)`. Each definition is a program variable of its own;
    a read outside the conditionals (or loops) that hold a definition also depends on their
    conditions (a variant of the definition, assigned with those guards)."""

    def __init__(
        self,
        statements: list[RawAssign | RawBranch],
        tracked: set[str],
        fortran: bool,
        published: Callable[[int, Span], bool] = lambda _definition, _read: False,
    ) -> None:
        self.statements = statements
        self._published = published
        self.tracked = tracked
        self.fortran = fortran
        self._flow = Flow()
        self._variants: dict[VariantKey, tuple[Span, ...]] = {}  # -> the guards the read depends on
        self._trees: dict[tuple[int, ...], list[tuple[int, list[int], list[int]]]] = {}
        self._read: dict[str, set[str]] = {}  # a statement's text -> the tracked names it reads
        if tracked:
            self._walk(self._tree(list(range(len(statements)))), conditional=False)

    def key(self, index: int) -> DefinitionKey:
        """The program variable of the definition statement `index` makes."""
        return DefinitionKey(self.statements[index].name, index)  # type: ignore[union-attr]

    # -- the walk ---------------------------------------------------------------------------------

    def _tree(self, indices: list[int]) -> list[tuple[int, list[int], list[int]]]:
        """(statement, header statements, body statements) for the outermost statements of `indices`
        (worked out once: a loop's body is walked again in every round)."""
        key = tuple(indices)
        found = self._trees.get(key)
        if found is None:
            found = self._trees[key] = self._build_tree(indices)
        return found

    def _build_tree(self, indices: list[int]) -> list[tuple[int, list[int], list[int]]]:
        found: list[tuple[int, list[int], list[int]]] = []
        rest = list(indices)
        while rest:
            first = rest.pop(0)
            statement = self.statements[first]
            inside = [i for i in rest if statement.span.contains(self.statements[i].span)]
            rest = [i for i in rest if i not in inside]
            regions = statement.regions if isinstance(statement, RawBranch) else ()
            body = [i for i in inside if any(r.contains(self.statements[i].span) for r in regions)]
            found.append((first, [i for i in inside if i not in body], body))
        return found

    def _walk_indices(self, indices: list[int], conditional: bool) -> None:
        self._walk(self._tree(indices), conditional)

    def _walk(self, tree: list[tuple[int, list[int], list[int]]], conditional: bool) -> None:
        for index, header, body in tree:
            statement = self.statements[index]
            if isinstance(statement, RawAssign):
                self._walk(self._tree(header), conditional)  # conditionals inside the assigned value
                self._assign(index, statement, conditional)
                continue
            before = [i for i in header if self.statements[i].span.start_byte < statement.condition.end_byte]
            after = [i for i in header if i not in before]
            self._walk(self._tree(before), conditional)
            if statement.kind == "loop":  # (keyed: a nested loop starts from where its head was last)
                drive(
                    self._flow.looping(
                        _stepper(partial(self._walk_indices, body, conditional)),
                        _stepper(partial(self._uses, index, statement.text)),
                        _stepper(partial(self._walk_indices, after, conditional)),
                        key=index,
                    )
                )
            elif self.fortran or statement.kind == "switch" or not statement.regions:
                self._uses(index, statement.text)  # one region for every arm: its definitions may not run
                saved = self._flow.fork()
                self._walk(self._tree(body), True)
                self._flow.merge(saved)
            else:
                self._uses(index, statement.text)  # C: each arm is a block of its own
                saved = self._flow.fork()
                ends = [] if len(statement.regions) > 1 else [saved]
                for region in statement.regions:
                    self._flow.restore(saved)
                    self._walk(self._tree([i for i in body if region.contains(self.statements[i].span)]), conditional)
                    ends.append(self._flow.fork())
                self._flow.restore(None)
                self._flow.merge(*ends)

    def _assign(self, index: int, statement: RawAssign, conditional: bool) -> None:
        self._uses(index, statement.value or "")
        if statement.name not in self.tracked:
            return
        if statement.compound:
            self._flow.use(statement.name, (index, statement.name))
        self._flow.define(statement.name, self.key(index), strong=not conditional)

    def _uses(self, index: int, text: str) -> None:
        names = self._read.get(text)
        if names is None:  # (read again in every round of the loops around it)
            names = self._read[text] = ex.names_in(text, fortran=self.fortran) & self.tracked
        for name in names:
            self._flow.use(name, (index, name))

    # -- reads ----------------------------------------------------------------------------------

    def read(self, index: int, name: str, at: Span | None = None) -> dep.Expr:
        """`name` read by statement `index` (`at`: where, when not the statement itself)."""
        where = at or self.statements[index].span
        reaching = self._flow.uses.get((index, name))
        if reaching is None:  # not reached by the walk: every definition of the name
            return dep.Var(name)
        options: list[dep.Expr] = []
        for key in sorted(reaching, key=source_order):
            if not isinstance(key, DefinitionKey):  # ENTRY
                options.append(dep.Const())  # the value from before the region: the same for every work-item
                continue
            position = key.at
            if self._published(position, where):
                options.append(dep.Uniform(name))  # a barrier published it: every thread reads the same memory
                continue
            definition = self.statements[position]
            guards = tuple(g for g in definition.guards if not g.contains(where))
            if not guards:
                options.append(dep.Var(key))
                continue
            variant = VariantKey(key, (len(self._variants),))  # each read a variant of its own
            self._variants[variant] = guards
            options.append(dep.Var(variant))
        return options[0] if len(options) == 1 else dep.Phi(tuple(options))

    def lower_variants(self, unit: dep.Unit) -> None:
        for variant, guards in self._variants.items():
            unit.assign(variant, dep.Var(variant.definition), guards)

    def varying(self, index: int, expr: dep.Expr) -> frozenset[Name]:
        """The statement's loop-varying names, and the definitions it reads that loops around it (or
        the loop itself) repeat."""
        statement = self.statements[index]
        assert isinstance(statement, RawBranch)
        loops = [
            s.span
            for s in self.statements
            if isinstance(s, RawBranch) and s.kind == "loop" and s.span.contains(statement.span)
        ]
        found: set[Name] = set(statement.varying)
        if statement.kind == "loop":  # its trip count is fixed on entry unless the loop itself moves the bound
            loops = [statement.span]
            moved = {s.name for s in self.statements if isinstance(s, RawAssign) and statement.span.contains(s.span)}
            found = {name for name in found if name in moved or name not in self.tracked}
        for name in dep.names_in(expr):
            key = definition_of(name)
            if key is None:
                continue
            definition = self.statements[key.at]
            if any(loop.contains(definition.span) for loop in loops):
                found.add(name)
        return frozenset(found)


def _stepper(callback: Callable[[], None]) -> Stepper:
    """A walker for `Flow.looping` that runs a plain callback (which recurses on its own)."""

    def walk() -> Steps:
        callback()
        yield from ()

    return walk
