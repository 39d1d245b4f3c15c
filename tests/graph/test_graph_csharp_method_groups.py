"""C#'s method groups (CleanArchitecture walked): a minimal API maps its endpoints by handing each
method over, ``groupBuilder.MapPost(CreateTodoItem)``; "what calls CreateTodoItem" and "what does
TodoItems.Map call" answered nothing. A method of the type around it, handed over by its name, is a
call of it; another argument (a parameter, a local, another type's method's name) none."""

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

    public static int CreateTodoItem(ISender sender, int command)
    {
        return sender.Send(command);
    }

    public static int DeleteTodoItem(ISender sender, int id)
    {
        return id;
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
