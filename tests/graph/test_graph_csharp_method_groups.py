"""C#'s method groups and MediatR's requests (CleanArchitecture walked): a minimal API maps its
endpoints by handing each method over, ``groupBuilder.MapPost(CreateTodoItem)``; "what calls
CreateTodoItem" and "what does TodoItems.Map call" answered nothing. A method of the type around it,
handed over by its name, is a call of it; another argument (a parameter, a local, another type's
method's name) none. An endpoint sends its request through MediatR (``sender.Send(command)``), which
runs the request's handler: a guess of the handler MediatR's naming gives."""

from __future__ import annotations

from graph_edges import callees

from conftest import NOW, resync
from kenning.answer.ask import ask_project

FILES = {
    "src/Web/Endpoints/TodoItems.cs": """namespace App.Web.Endpoints;

public class TodoItems
{
    public static void Map(RouteGroupBuilder groupBuilder, string name)
    {
        groupBuilder.MapPost(CreateTodoItem);
        groupBuilder.MapDelete(DeleteTodoItem, "{id}");
        groupBuilder.WithName(name);
        groupBuilder.MapGet(Archive);
    }

    public static int CreateTodoItem(ISender sender, CreateTodoItemCommand command)
    {
        return sender.Send(command);
    }

    public static int DeleteTodoItem(ISender sender, int id)
    {
        return sender.Send(new DeleteTodoItemCommand(id));
    }

    public static int Complete(ISender sender, int id)
    {
        return sender.Send(new CompleteTodoItemCommand(id));
    }

    public static int Rename(ISender sender, string text)
    {
        return sender.Send(text);
    }
}
""",
    "src/Application/TodoItems/CreateTodoItem.cs": """namespace App.Application.TodoItems;

public record CreateTodoItemCommand(string Title) : IRequest<int>;

public class CreateTodoItemCommandHandler : IRequestHandler<CreateTodoItemCommand, int>
{
    public Task<int> Handle(CreateTodoItemCommand request, CancellationToken cancellationToken)
    {
        return Task.FromResult(1);
    }
}

public record CompleteTodoItemCommand(int Id) : IRequest;

public class CompleteTodoItemCommandHandler : IRequestHandler<CompleteTodoItemCommand>
{
    public Task Handle(CompleteTodoItemCommand request, CancellationToken cancellationToken)
    {
        return Task.CompletedTask;
    }
}
""",
    # a request whose handler MediatR's naming does not give: no guess
    "src/Application/TodoItems/DeleteTodoItem.cs": """namespace App.Application.TodoItems;

public record DeleteTodoItemCommand(int Id) : IRequest;

public class RemoveTodoItem : IRequestHandler<DeleteTodoItemCommand>
{
    public Task Handle(DeleteTodoItemCommand request, CancellationToken cancellationToken)
    {
        return Task.CompletedTask;
    }
}
""",
    # a homonym in another type: not the method group's
    "src/Web/Endpoints/TodoLists.cs": """namespace App.Web.Endpoints;

public class TodoLists
{
    public static int DeleteTodoItem(int id)
    {
        return id;
    }

    public static int Archive()
    {
        return 0;
    }
}
""",
}


def test_a_method_group_is_a_call_of_the_method(make_project):
    project = make_project(FILES)
    resync(project)
    assert callees(project, "TodoItems.Map") == {
        ("TodoItems.CreateTodoItem", "extracted"),
        ("TodoItems.DeleteTodoItem", "extracted"),
    }
    answer = ask_project(project, "what calls CreateTodoItem", now=NOW)
    assert [e.fact.source.uri for e in answer.excerpts] == ["src/Web/Endpoints/TodoItems.cs:5-11"]


def test_a_mediatr_request_sent_calls_its_handler_as_a_guess(make_project):
    project = make_project(FILES)
    resync(project)
    assert callees(project, "TodoItems.CreateTodoItem") == {("CreateTodoItemCommandHandler.Handle", "heuristic")}
    assert ("CompleteTodoItemCommandHandler.Handle", "heuristic") in callees(project, "TodoItems.Complete")  # ``new``
    # ``RemoveTodoItem``: not named as MediatR names handlers; a request of a type unsaid
    assert callees(project, "TodoItems.DeleteTodoItem") == {("DeleteTodoItemCommand", "extracted")}  # ``new``
    assert not callees(project, "TodoItems.Rename")
    handled = ask_project(project, "what calls CreateTodoItemCommandHandler.Handle", now=NOW)
    assert [e.fact.source.uri for e in handled.excerpts][:1] == ["src/Web/Endpoints/TodoItems.cs:13-16"]
